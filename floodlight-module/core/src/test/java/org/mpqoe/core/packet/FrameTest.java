package org.mpqoe.core.packet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FrameTest {
  /** The MP_CAPABLE SYN of fixtures/mptcp-v1-basic.json: IPv4 at 14, TCP at 34, options at 54. */
  static final byte[] SYN =
      HexFormat.of()
          .parseHex(
              "020000000500020000000c000800"
                  + "45000040933a4000400690e10a4d01010a4d0102"
                  + "ba183b612a74764c00000000b002faf091580000"
                  + "020405b40402080ae912f6c0000000000103030a1e040101");

  static byte[] with(byte[] frame, int index, int value) {
    byte[] b = frame.clone();
    b[index] = (byte) value;
    return b;
  }

  /** The frame with an 802.1Q tag (VLAN 42, PCP 5) inserted after the MACs. */
  static byte[] tagged(byte[] frame) {
    byte[] b = new byte[frame.length + 4];
    System.arraycopy(frame, 0, b, 0, 12);
    b[12] = (byte) 0x81;
    b[14] = (byte) 0xa0;
    b[15] = 42;
    System.arraycopy(frame, 12, b, 16, frame.length - 12);
    return b;
  }

  @Test
  void aCapturedSynParsesCompletely() {
    Frame f = Frame.parse(SYN);
    assertEquals(ParseResult.OK, f.result());
    assertEquals("02:00:00:00:05:00", Addresses.formatMac(f.ethernet().dst()));
    assertEquals("02:00:00:00:0c:00", Addresses.formatMac(f.ethernet().src()));
    assertFalse(f.ethernet().tagged());
    assertEquals(5, f.ipv4().ihl());
    assertEquals(64, f.ipv4().totalLength());
    assertEquals(6, f.ipv4().protocol());
    assertEquals("10.77.1.1", Addresses.formatIpv4(f.ipv4().src()));
    assertEquals("10.77.1.2", Addresses.formatIpv4(f.ipv4().dst()));
    Tcp tcp = f.tcp();
    assertEquals(47640, tcp.srcPort());
    assertEquals(15201, tcp.dstPort());
    assertEquals(0x2a74764cL, tcp.seq());
    assertEquals(0, tcp.ack());
    assertEquals(11, tcp.dataOffset());
    assertEquals(Tcp.SYN, tcp.flags());
    assertTrue(tcp.has(Tcp.SYN));
    assertFalse(tcp.has(Tcp.SYN | Tcp.ACK));
    assertEquals(24, tcp.options().length);
    assertEquals(0x1e, tcp.options()[20]);
    assertEquals(0, tcp.payloadLength());
    assertNull(f.arp());
  }

  @Test
  void sequenceNumbersAreUnsigned() {
    byte[] b = SYN.clone();
    Arrays.fill(b, 38, 46, (byte) 0xff);
    assertEquals(0xffffffffL, Frame.parse(b).tcp().seq());
    assertEquals(0xffffffffL, Frame.parse(b).tcp().ack());
  }

  @Test
  void aVlanTagIsReadAndSkipped() {
    Frame f = Frame.parse(tagged(SYN));
    assertEquals(ParseResult.OK, f.result());
    assertEquals(42, f.ethernet().vlanId());
    assertEquals(Ethernet.TYPE_IPV4, f.ethernet().etherType());
    assertEquals(18, f.ethernet().headerLength());
    assertEquals(15201, f.tcp().dstPort());
  }

  @Test
  void ethernetPaddingBeyondTheTotalLengthIsIgnored() {
    byte[] b = Arrays.copyOf(SYN, SYN.length + 20);
    Frame f = Frame.parse(b);
    assertEquals(ParseResult.OK, f.result());
    assertEquals(0, f.tcp().payloadLength());
  }

  @Test
  void ipv4OptionsMoveTheTcpHeader() {
    byte[] b = new byte[SYN.length + 4];
    System.arraycopy(SYN, 0, b, 0, 34);
    b[14] = 0x46;
    b[17] = 68;
    b[34] = 1; // four NOP option bytes
    b[35] = 1;
    b[36] = 1;
    b[37] = 1;
    System.arraycopy(SYN, 34, b, 38, SYN.length - 34);
    Frame f = Frame.parse(b);
    assertEquals(ParseResult.OK, f.result());
    assertEquals(24, f.ipv4().headerLength());
    assertEquals(15201, f.tcp().dstPort());
    assertEquals(24, f.tcp().options().length);
  }

  @Test
  void otherEtherTypesAndProtocolsStopEarlyWithoutError() {
    Frame ipv6 = Frame.parse(with(with(SYN, 12, 0x86), 13, 0xdd));
    assertEquals(ParseResult.OK, ipv6.result());
    assertNull(ipv6.ipv4());
    Frame udp = Frame.parse(with(SYN, 23, 17));
    assertEquals(ParseResult.OK, udp.result());
    assertEquals(17, udp.ipv4().protocol());
    assertNull(udp.tcp());
  }

  @Test
  void emptyAndShortFrames() {
    assertEquals(ParseResult.EMPTY, Frame.parse(null).result());
    assertEquals(ParseResult.EMPTY, Frame.parse(new byte[0]).result());
    assertEquals(ParseResult.TRUNCATED_ETHERNET, Frame.parse(new byte[13]).result());
    assertEquals(ParseResult.OK, Frame.parse(new byte[14]).result()); // EtherType 0
    assertEquals(ParseResult.TRUNCATED_VLAN, Frame.parse(Arrays.copyOf(tagged(SYN), 17)).result());
  }

  @ParameterizedTest
  @ValueSource(ints = {14, 20, 33})
  void aShortIpv4HeaderIsTruncated(int length) {
    Frame f = Frame.parse(Arrays.copyOf(SYN, length));
    assertEquals(ParseResult.TRUNCATED_IPV4, f.result());
    assertNotNull(f.ethernet());
    assertNull(f.ipv4());
  }

  @Test
  void badIpv4Headers() {
    assertEquals(ParseResult.BAD_IPV4_VERSION, Frame.parse(with(SYN, 14, 0x65)).result());
    assertEquals(ParseResult.BAD_IPV4_IHL, Frame.parse(with(SYN, 14, 0x44)).result());
    assertEquals(ParseResult.BAD_IPV4_IHL, Frame.parse(with(SYN, 14, 0x40)).result());
    // IHL 15 (60 bytes) with 64 bytes present is fine for IPv4, but leaves 4 bytes of TCP
    assertEquals(ParseResult.TRUNCATED_TCP, Frame.parse(with(SYN, 14, 0x4f)).result());
    assertEquals(
        ParseResult.TRUNCATED_IPV4, Frame.parse(Arrays.copyOf(with(SYN, 14, 0x4f), 70)).result());
    assertEquals(
        ParseResult.BAD_IPV4_TOTAL_LENGTH, Frame.parse(with(with(SYN, 16, 0), 17, 19)).result());
  }

  @Test
  void laterFragmentsAreLeftAloneButTheFirstIsRead() {
    Frame later = Frame.parse(with(with(SYN, 20, 0x20), 21, 0x01)); // MF, offset 1
    assertEquals(ParseResult.IPV4_FRAGMENT, later.result());
    assertTrue(later.result().wellFormed());
    assertEquals(1, later.ipv4().fragmentOffset());
    assertTrue(later.ipv4().moreFragments());
    assertNull(later.tcp());
    Frame first = Frame.parse(with(with(SYN, 20, 0x20), 21, 0x00)); // MF, offset 0
    assertEquals(ParseResult.OK, first.result());
    assertNotNull(first.tcp());
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 4})
  void aDataOffsetBelowFiveIsBad(int dataOffset) {
    Frame f = Frame.parse(with(SYN, 46, dataOffset << 4));
    assertEquals(ParseResult.BAD_TCP_DATA_OFFSET, f.result());
    assertNotNull(f.ipv4());
    assertNull(f.tcp());
    assertFalse(f.result().wellFormed());
  }

  @Test
  void tcpHeadersMustFitTheBytesAndTheTotalLength() {
    assertEquals(ParseResult.TRUNCATED_TCP, Frame.parse(Arrays.copyOf(SYN, 53)).result());
    assertEquals(ParseResult.TRUNCATED_TCP, Frame.parse(Arrays.copyOf(SYN, 77)).result());
    assertEquals(ParseResult.TRUNCATED_TCP, Frame.parse(with(SYN, 46, 0xf0)).result());
    // total length 60 cuts the 44-byte header although all 64 bytes are present
    assertEquals(ParseResult.TRUNCATED_TCP, Frame.parse(with(SYN, 17, 60)).result());
    // data offset 5: options empty, the rest counts as payload
    Frame five = Frame.parse(with(SYN, 46, 0x50));
    assertEquals(0, five.tcp().options().length);
    assertEquals(24, five.tcp().payloadLength());
  }

  @Test
  void aPacketInCutShortOfItsTotalLengthStillGivesTheHeaders() {
    byte[] b = with(with(SYN, 16, 0x05), 17, 0xdc); // total length 1500, 64 bytes present
    Frame f = Frame.parse(b);
    assertEquals(ParseResult.OK, f.result());
    assertEquals(1500 - 20 - 44, f.tcp().payloadLength());
  }
}
