package org.mpqoe.core.mptcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TokensTest {

  /**
   * Version 0 (SHA-1): key and token pairs published with a real v0 trace (README of
   * github.com/gureya/mptcp-assignment, "Sender's key ... Sender's Token").
   */
  @ParameterizedTest
  @CsvSource({
    "2097874973131745533, 3453009450",
    "14232633393355152416, 1187499290",
    "983142155943229432, 3611618124",
    "6234784353306747016, 2308765430",
    "5823071776475689728, 229917286",
    "4848392901692201259, 1243844425"
  })
  void v0TokensMatchPublishedOnes(String key, long token) {
    assertEquals((int) token, Tokens.token(Long.parseUnsignedLong(key), 0));
  }

  /**
   * Version 1 (SHA-256), from the Linux 6.18 captures: the key of the server's SYN/ACK, the token
   * the client's MP_JOIN SYN carried, and the IDSN whose + 1 the server's first DSS mapping used.
   */
  @ParameterizedTest
  @CsvSource({
    "e21d20500a04d4a9, 6be47e35, ce93974f21454c4e",
    "89b8a8b809fa317f, 37c2658a, 3987a4773939c345"
  })
  void v1TokensAndIdsnsMatchTheKernel(String key, String token, String idsn) {
    long k = Long.parseUnsignedLong(key, 16);
    assertEquals(token, Tokens.hex(Tokens.token(k, 1)));
    assertEquals(Long.parseUnsignedLong(idsn, 16), Tokens.idsn(k, 1));
  }

  @ParameterizedTest
  @CsvSource({"0, 00000000", "-1, ffffffff", "305419896, 12345678"})
  void hexIsEightDigits(int token, String hex) {
    assertEquals(hex, Tokens.hex(token));
  }
}
