package org.mpqoe.core.packet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class ArpTest {
  private static final long HOST = Addresses.parseMac("02:00:00:00:0c:00");
  private static final long GATEWAY = Addresses.parseMac("02:00:00:00:05:00");
  private static final int HOST_IP = Addresses.parseIpv4("10.77.1.1");
  private static final int GATEWAY_IP = Addresses.parseIpv4("10.77.1.2");

  /** "Who has 10.77.1.2? Tell 10.77.1.1", broadcast, as Linux sends it. */
  static final byte[] REQUEST =
      HexFormat.of()
          .parseHex(
              "ffffffffffff020000000c000806"
                  + "0001080006040001020000000c000a4d0101000000000000"
                  + "0a4d0102");

  @Test
  void aRequestParses() {
    Frame f = Frame.parse(REQUEST);
    assertEquals(ParseResult.OK, f.result());
    assertTrue(f.hasArp());
    assertEquals(new Arp(Arp.REQUEST, HOST, HOST_IP, 0, GATEWAY_IP), f.arp());
    assertNull(f.ipv4());
    assertEquals(0xffffffffffffL, f.ethernet().dst());
  }

  @Test
  void malformedArp() {
    assertEquals(ParseResult.TRUNCATED_ARP, Frame.parse(Arrays.copyOf(REQUEST, 41)).result());
    byte[] ipv6 = REQUEST.clone();
    ipv6[16] = (byte) 0x86;
    ipv6[17] = (byte) 0xdd;
    assertEquals(ParseResult.BAD_ARP, Frame.parse(ipv6).result());
    byte[] tokenRing = REQUEST.clone();
    tokenRing[15] = 6;
    assertEquals(ParseResult.BAD_ARP, Frame.parse(tokenRing).result());
  }

  @Test
  void aReplyIsTheBytesLinuxWouldSend() {
    byte[] reply = ArpReply.build(GATEWAY, GATEWAY_IP, HOST, HOST_IP);
    assertArrayEquals(
        HexFormat.of()
            .parseHex(
                "020000000c00020000000500 0806 0001 0800 06 04 0002 020000000500 0a4d0102"
                        .replace(" ", "")
                    + "020000000c000a4d0101"),
        reply);
    Frame f = Frame.parse(reply);
    assertEquals(new Arp(Arp.REPLY, GATEWAY, GATEWAY_IP, HOST, HOST_IP), f.arp());
  }

  @Test
  void answeringARequestSwapsTheEndsAndKeepsTheVlan() {
    byte[] reply = ArpReply.answering(Frame.parse(REQUEST), GATEWAY).orElseThrow();
    assertArrayEquals(ArpReply.build(GATEWAY, GATEWAY_IP, HOST, HOST_IP), reply);

    byte[] taggedRequest = FrameTest.tagged(REQUEST);
    Frame tagged = Frame.parse(ArpReply.answering(Frame.parse(taggedRequest), GATEWAY).get());
    assertEquals(42, tagged.ethernet().vlanId());
    assertEquals(Arp.REPLY, tagged.arp().op());
    assertEquals(46, ArpReply.build(GATEWAY, GATEWAY_IP, HOST, HOST_IP, 42).length);
  }

  @Test
  void onlyRequestsAreAnswered() {
    assertTrue(ArpReply.answering(Frame.parse(FrameTest.SYN), GATEWAY).isEmpty());
    Frame reply = Frame.parse(ArpReply.build(GATEWAY, GATEWAY_IP, HOST, HOST_IP));
    assertTrue(ArpReply.answering(reply, GATEWAY).isEmpty());
    assertTrue(ArpReply.answering(null, GATEWAY).isEmpty());
  }

  @Test
  void vlanIdsAreChecked() {
    assertThrows(IllegalArgumentException.class, () -> ArpReply.build(GATEWAY, 1, HOST, 2, 4096));
    assertThrows(IllegalArgumentException.class, () -> ArpReply.build(GATEWAY, 1, HOST, 2, -2));
  }
}
