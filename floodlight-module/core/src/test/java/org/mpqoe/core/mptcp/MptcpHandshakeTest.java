package org.mpqoe.core.mptcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mpqoe.core.mptcp.MptcpHandshake.None;
import org.mpqoe.core.mptcp.MptcpHandshake.Reason;
import org.mpqoe.core.mptcp.MptcpHandshake.Step;
import org.mpqoe.core.mptcp.ParseStats.Counter;
import org.mpqoe.core.packet.Tcp;

class MptcpHandshakeTest {
  private static final int SYN = Tcp.SYN;
  private static final int SYNACK = Tcp.SYN | Tcp.ACK;
  private static final int ACK = Tcp.ACK;
  private static final String KEY = "1122334455667788";

  private static MptcpHandshake classify(int flags, String hex, ParseStats stats) {
    return MptcpHandshake.classify(flags, HexFormat.of().parseHex(hex.replace(" ", "")), stats);
  }

  @ParameterizedTest
  @CsvSource({
    // flags, options, step
    "2, 1e040101, CAPABLE_SYN",
    "2, 1e0c0081" + KEY + ", CAPABLE_SYN", // v0 SYN carries the client's key
    "18, 1e0c0101" + KEY + ", CAPABLE_SYNACK",
    "18, 1e0c0081" + KEY + ", CAPABLE_SYNACK",
    "16, 1e140101" + KEY + KEY + ", CAPABLE_ACK",
    "16, 1e160101" + KEY + KEY + "0010 0101, CAPABLE_ACK",
    "24, 1e180181" + KEY + KEY + "0010 354e, CAPABLE_ACK", // PSH+ACK with data
    "2, 1e0c1001 6be47e35 060af2d4, JOIN_SYN",
    "18, 1e101000" + KEY + "8a522468, JOIN_SYNACK",
    "16, 1e181000 f8233d6b775ee10a40cee0a140c56f7aa3cc1336, JOIN_ACK",
    "16, 0101080a0001e24a0003c8f0, NONE",
  })
  void stepsFollowFlagsAndLengths(int flags, String options, Step step) {
    ParseStats stats = new ParseStats();
    assertEquals(step, classify(flags, options, stats).step());
    assertEquals(0, stats.get(Counter.HANDSHAKE_FLAGS_MISMATCH));
  }

  @ParameterizedTest
  @CsvSource({
    "18, 1e040101", // v1 SYN option on a SYN/ACK
    "2, 1e0c0101" + KEY, // v1 SYN/ACK option on a SYN
    "16, 1e0c0101" + KEY, // 12 bytes on a pure ACK
    "18, 1e140101" + KEY + KEY, // both keys on a SYN/ACK
    "0, 1e040101", // no SYN, no ACK
    "16, 1e0c1001 6be47e35 060af2d4", // join SYN option on an ACK
    "2, 1e101000" + KEY + "8a522468",
    "18, 1e181000 f8233d6b775ee10a40cee0a140c56f7aa3cc1336",
  })
  void handshakeOptionsWithTheWrongFlagsAreCounted(int flags, String options) {
    ParseStats stats = new ParseStats();
    assertEquals(new None(Reason.FLAGS_MISMATCH), classify(flags, options, stats));
    assertEquals(1, stats.get(Counter.HANDSHAKE_FLAGS_MISMATCH));
  }

  @Test
  void theFirstHandshakeOptionDecides() {
    MptcpHandshake h = classify(SYN, "1e0c1001 6be47e35 060af2d4 1e040101", null);
    assertEquals(new MptcpHandshake.JoinSyn(0x6be47e35, 1, 0x060af2d4, false), h);
  }

  @Test
  void malformedOrMissingOptionsAreNotHandshakes() {
    assertEquals(Reason.NO_HANDSHAKE_OPTION, ((None) classify(SYN, "1e08 0101", null)).reason());
    assertEquals(Step.NONE, classify(SYN, "1e01", null).step());
    assertEquals(Step.NONE, MptcpHandshake.classify(SYN, null).step());
    assertEquals(Step.NONE, MptcpHandshake.classify(null, null).step());
  }

  @Test
  void synAckAndAckCarryTheKeys() {
    var synAck = classify(SYNACK, "1e0c0101" + KEY, null);
    assertEquals(
        0x1122334455667788L,
        assertInstanceOf(MptcpHandshake.CapableSynAck.class, synAck).serverKey());
    var ack = classify(ACK, "1e140101 0000000000000001 0000000000000002", null);
    assertEquals(new MptcpHandshake.CapableAck(1, 1, 1L, 2L, null), ack);
  }
}
