package org.mpqoe.core.mptcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mpqoe.core.mptcp.MptcpOption.MpCapable;
import org.mpqoe.core.mptcp.MptcpOption.MpJoin;
import org.mpqoe.core.mptcp.ParseStats.Counter;
import org.mpqoe.core.mptcp.TcpOptions.Stop;

class TcpOptionsTest {
  private final ParseStats stats = new ParseStats();

  @AfterEach
  void countersAddUp() {
    StatsInvariants.check(stats);
  }

  private TcpOptions parse(String hex) {
    return TcpOptions.parse(HexFormat.of().parseHex(hex.replace(" ", "")), stats);
  }

  /** Only the named counters moved, by the given amounts (LISTS and the stop are implied). */
  private void assertCounted(Stop stop, Map<Counter, Long> expected) {
    for (Counter c : Counter.values()) {
      long want = expected.getOrDefault(c, 0L);
      if (c == Counter.LISTS || c.name().equals(stop.name())) {
        want = 1;
      }
      assertEquals(want, stats.get(c), c.name());
    }
  }

  @Test
  void emptyAndNullAreEmptyWellFormedLists() {
    assertEquals(new TcpOptions(List.of(), List.of(), Stop.EXHAUSTED), parse(""));
    assertEquals(Stop.EXHAUSTED, TcpOptions.parse(null).stop());
    assertEquals(Stop.EXHAUSTED, TcpOptions.parse(null, 0, 0, null).stop());
  }

  @Test
  void aLinuxSynWalksToTheEnd() {
    // MSS 1460, SACK permitted, timestamps, NOP, window scale 10, MP_CAPABLE v1 (4 bytes)
    TcpOptions o = parse("020405b4 0402 080ae912f6c000000000 01 03030a 1e040101");
    assertEquals(Stop.EXHAUSTED, o.stop());
    assertEquals(List.of(2, 4, 8, 3, 30), o.options().stream().map(TcpOption::kind).toList());
    assertEquals(new TcpOption(30, 20, 4), o.options().get(4));
    assertEquals(List.of(new MpCapable(1, 0x01, null, null, null, 4)), o.mptcp());
    assertCounted(
        Stop.EXHAUSTED,
        Map.of(Counter.NOP, 1L, Counter.OTHER_KIND, 4L, Counter.MPTCP, 1L, Counter.MP_CAPABLE, 1L));
  }

  @Test
  void endOfListStopsTheWalkAndHidesWhatFollows() {
    TcpOptions o = parse("0101 00 1e040101");
    assertEquals(Stop.END_OF_LIST, o.stop());
    assertTrue(o.options().isEmpty());
    assertCounted(Stop.END_OF_LIST, Map.of(Counter.NOP, 2L));
  }

  @ParameterizedTest
  @CsvSource({"00", "01"})
  void lengthZeroOrOneStopsTheWalk(String length) {
    TcpOptions o = parse("020405b4 08" + length + "1e040101");
    assertEquals(Stop.BAD_LENGTH, o.stop());
    assertEquals(1, o.options().size());
    assertCounted(Stop.BAD_LENGTH, Map.of(Counter.OTHER_KIND, 1L));
  }

  @Test
  void mptcpWithOneByteLengthIsABadLength() {
    assertEquals(Stop.BAD_LENGTH, parse("1e01 0000").stop());
    assertCounted(Stop.BAD_LENGTH, Map.of());
  }

  @Test
  void lengthPastTheEndIsTruncated() {
    TcpOptions o = parse("01 1e0c0101e21d2050"); // MP_CAPABLE of 12 with 8 bytes left
    assertEquals(Stop.TRUNCATED, o.stop());
    assertTrue(o.options().isEmpty());
    assertCounted(Stop.TRUNCATED, Map.of(Counter.NOP, 1L));
  }

  @Test
  void aKindWithoutItsLengthByteIsTruncated() {
    assertEquals(Stop.TRUNCATED, parse("0101 1e").stop());
    assertCounted(Stop.TRUNCATED, Map.of(Counter.NOP, 2L));
  }

  @Test
  void mptcpOfLengthTwoHasNoSubtypeAndIsSkipped() {
    TcpOptions o = parse("1e02 1e040101");
    assertEquals(Stop.EXHAUSTED, o.stop());
    assertEquals(2, o.options().size());
    assertEquals(1, o.mptcp().size());
    assertCounted(
        Stop.EXHAUSTED,
        Map.of(Counter.MPTCP, 2L, Counter.MPTCP_TOO_SHORT, 1L, Counter.MP_CAPABLE, 1L));
    assertEquals(1, stats.malformed());
  }

  @ParameterizedTest
  @CsvSource({
    // version, length: accepted?
    "1, 3, false", "1, 4, true", "1, 8, false", "1, 12, true", "1, 16, false", "1, 20, true",
    "1, 22, true", "1, 24, true", "1, 26, false", "0, 4, false", "0, 12, true", "0, 20, true",
    "0, 22, false", "0, 24, false", "2, 4, true"
  })
  void mpCapableLengthsFollowTheVersion(int version, int length, boolean accepted) {
    byte[] b = new byte[length];
    b[0] = 30;
    b[1] = (byte) length;
    b[2] = (byte) version;
    if (length > 3) {
      b[3] = 0x01;
    }
    TcpOptions o = TcpOptions.parse(b, stats);
    assertEquals(Stop.EXHAUSTED, o.stop());
    assertEquals(accepted ? 1 : 0, o.mptcp().size());
    assertEquals(accepted ? 0 : 1, stats.get(Counter.MP_CAPABLE_BAD_LENGTH));
  }

  @Test
  void mpCapableFieldsByLength() {
    String keys = "1122334455667788 99aabbccddeeff00";
    MpCapable ack22 = parse("1e160181" + keys + "0010").mpCapable().orElseThrow();
    assertEquals(new MpCapable(1, 0x81, 0x1122334455667788L, 0x99aabbccddeeff00L, 16, 22), ack22);
    assertTrue(ack22.checksumRequired());
    MpCapable ack24 = parse("1e180181" + keys + "0010 354e").mpCapable().orElseThrow();
    assertEquals(16, ack24.dataLevelLength());
    MpCapable synAck = parse("1e0c0101 1122334455667788").mpCapable().orElseThrow();
    assertEquals(new MpCapable(1, 0x01, 0x1122334455667788L, null, null, 12), synAck);
    MpCapable v0Syn = parse("1e0c0081 1122334455667788").mpCapable().orElseThrow();
    assertEquals(0, v0Syn.version());
    assertEquals(0x1122334455667788L, v0Syn.senderKey());
  }

  @Test
  void mpJoinFormsByLength() {
    MpJoin syn = parse("1e0c1101 6be47e35 060af2d4").mpJoin().orElseThrow();
    assertEquals(MpJoin.Stage.SYN, syn.stage());
    assertTrue(syn.backup());
    assertEquals(1, syn.addressId());
    assertEquals(0x6be47e35, syn.receiverToken());
    assertEquals(0x060af2d4, syn.nonce());
    assertNull(syn.truncatedHmac());

    MpJoin synAck = parse("1e101000 f6a76cd5064f6cc2 8a522468").mpJoin().orElseThrow();
    assertEquals(MpJoin.Stage.SYNACK, synAck.stage());
    assertEquals(0, synAck.addressId());
    assertEquals(0xf6a76cd5064f6cc2L, synAck.truncatedHmac());
    assertEquals(0x8a522468, synAck.nonce());
    assertNull(synAck.receiverToken());

    String hmac = "f8233d6b775ee10a40cee0a140c56f7aa3cc1336";
    MpJoin ack = parse("1e181000" + hmac).mpJoin().orElseThrow();
    assertEquals(MpJoin.Stage.ACK, ack.stage());
    assertArrayEquals(HexFormat.of().parseHex(hmac), ack.hmac());
    assertNull(ack.addressId());
    assertEquals(3, stats.get(Counter.MP_JOIN));
  }

  @ParameterizedTest
  @CsvSource({"3", "4", "11", "13", "20", "26"})
  void mpJoinOfAnotherLengthIsSkipped(int length) {
    byte[] b = new byte[length + 5];
    b[0] = 30;
    b[1] = (byte) length;
    b[2] = 0x10;
    b[length] = 1; // a NOP and a MP_CAPABLE v1 SYN after it
    System.arraycopy(new byte[] {30, 4, 1, 1}, 0, b, length + 1, 4);
    TcpOptions o = TcpOptions.parse(b, stats);
    assertEquals(Stop.EXHAUSTED, o.stop());
    assertInstanceOf(MpCapable.class, o.mptcp().get(0));
    assertEquals(1, stats.get(Counter.MP_JOIN_BAD_LENGTH));
  }

  /** Found by ParserFuzzTest: a 3-byte MP_JOIN at the very end of the options. */
  @ParameterizedTest
  @CsvSource({"1e0300", "1e0310", "0101 1e0310", "1e0390"})
  void threeByteMptcpOptionsAtTheEndAreSkipped(String hex) {
    TcpOptions o = parse(hex);
    assertEquals(Stop.EXHAUSTED, o.stop());
    assertTrue(o.mptcp().isEmpty());
    assertEquals(1, o.options().size());
  }

  @Test
  void otherSubtypesAreCountedNotDecoded() {
    // DSS (2), ADD_ADDR (3), MP_TCPRST (8), MP_EXPERIMENTAL (f), unassigned 9 and e
    TcpOptions o = parse("1e042001 1e0430aa 1e048000 1e04f000 1e049000 1e04e000");
    assertTrue(o.mptcp().isEmpty());
    assertEquals(6, o.options().size());
    assertEquals(4, stats.get(Counter.OTHER_SUBTYPE));
    assertEquals(2, stats.get(Counter.UNKNOWN_MPTCP_SUBTYPE));
    assertEquals(0, stats.malformed());
  }

  @Test
  void slicesAreWalkedInPlaceAndBadSlicesDoNotThrow() {
    byte[] b = HexFormat.of().parseHex("ffff1e040101ffff");
    TcpOptions o = TcpOptions.parse(b, 2, 4, stats);
    assertEquals(new TcpOption(30, 2, 4), o.options().get(0));
    assertEquals(Stop.TRUNCATED, TcpOptions.parse(b, 6, 4, stats).stop());
    assertEquals(Stop.TRUNCATED, TcpOptions.parse(b, -1, 2, stats).stop());
    assertEquals(Stop.TRUNCATED, TcpOptions.parse(b, 2, -1, stats).stop());
    assertEquals(Stop.TRUNCATED, TcpOptions.parse(null, 0, 4, stats).stop());
    assertEquals(Stop.TRUNCATED, TcpOptions.parse(b, Integer.MAX_VALUE, 2, stats).stop());
  }

  @Test
  void aSharedCounterIsSafeAcrossThreads() throws InterruptedException {
    byte[] syn = HexFormat.of().parseHex("020405b404021e040101");
    Thread[] threads = new Thread[4];
    for (int t = 0; t < threads.length; t++) {
      threads[t] =
          new Thread(
              () -> {
                for (int i = 0; i < 10_000; i++) {
                  TcpOptions.parse(syn, stats);
                }
              });
      threads[t].start();
    }
    for (Thread t : threads) {
      t.join();
    }
    assertEquals(40_000, stats.get(Counter.MP_CAPABLE));
    assertEquals(40_000, stats.get(Counter.LISTS));
  }
}
