package org.mpqoe.core.packet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class AddressesTest {

  @ParameterizedTest
  @CsvSource({
    "10.0.0.1, 167772161",
    "255.255.255.255, -1",
    "0.0.0.0, 0",
    "192.168.1.2, -1062731518"
  })
  void ipv4RoundTrips(String text, int value) {
    assertEquals(value, Addresses.parseIpv4(text));
    assertEquals(text, Addresses.formatIpv4(value));
  }

  @ParameterizedTest
  @CsvSource({
    "02:00:00:00:0c:00, 2199023258624",
    "ff:ff:ff:ff:ff:ff, 281474976710655",
    "00:00:00:00:00:01, 1"
  })
  void macRoundTrips(String text, long value) {
    assertEquals(value, Addresses.parseMac(text));
    assertEquals(text, Addresses.formatMac(value));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "1.2.3", "1.2.3.4.5", "1.2.3.256", "1.2..4", "+1.2.3.4", "a.b.c.d"})
  void badIpv4IsRejected(String text) {
    assertThrows(IllegalArgumentException.class, () -> Addresses.parseIpv4(text));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"", "00:00:00:00:00", "00:00:00:00:00:100", "0g:00:00:00:00:00", "-1:0:0:0:0:0"})
  void badMacIsRejected(String text) {
    assertThrows(IllegalArgumentException.class, () -> Addresses.parseMac(text));
  }
}
