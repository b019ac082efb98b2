package org.mpqoe.core.packet;

import java.util.HexFormat;

/**
 * A TCP header. Options are kept raw, as Floodlight's {@code TCP.getOptions()} gives them; {@code
 * org.mpqoe.core.mptcp.TcpOptions} walks them.
 *
 * @param srcPort source port
 * @param dstPort destination port
 * @param seq sequence number, 0 to 2^32 - 1
 * @param ack acknowledgment number, 0 to 2^32 - 1
 * @param dataOffset header length in 32-bit words (5 to 15)
 * @param flags the 8 flag bits of byte 13 ({@link #FIN} ... {@link #CWR})
 * @param window receive window
 * @param options the {@code (dataOffset - 5) * 4} option bytes (this record's own copy)
 * @param payloadLength bytes after the header, from the IPv4 total length
 */
public record Tcp(
    int srcPort,
    int dstPort,
    long seq,
    long ack,
    int dataOffset,
    int flags,
    int window,
    byte[] options,
    int payloadLength) {
  public static final int FIN = 0x01;
  public static final int SYN = 0x02;
  public static final int RST = 0x04;
  public static final int PSH = 0x08;
  public static final int ACK = 0x10;
  public static final int URG = 0x20;
  public static final int ECE = 0x40;
  public static final int CWR = 0x80;
  public static final int MIN_HEADER = 20;

  /** True if every bit of {@code mask} is set. */
  public boolean has(int mask) {
    return (flags & mask) == mask;
  }

  @Override
  public String toString() {
    return "Tcp["
        + srcPort
        + " > "
        + dstPort
        + String.format(" flags 0x%02x", flags)
        + " seq "
        + seq
        + " ack "
        + ack
        + " options "
        + HexFormat.of().formatHex(options)
        + " payload "
        + payloadLength
        + "]";
  }
}
