package org.mpqoe.bench;

import java.nio.ByteBuffer;

/** Ethernet/IPv4/TCP frames of MPTCP v1 handshake segments, as a client's kernel sends them. */
final class HandshakeFrames {
  private HandshakeFrames() {}

  /** SYN with MP_CAPABLE v1 (RFC 8684: no key in the SYN). */
  static byte[] capableSyn(int src, int dst, int srcPort, int dstPort) {
    return frame(src, dst, srcPort, dstPort, 0x02, new byte[] {30, 4, 0x01, 0x01});
  }

  /** SYN/ACK with MP_CAPABLE v1 and the server's key. */
  static byte[] capableSynAck(int src, int dst, int srcPort, int dstPort, long key) {
    ByteBuffer o = ByteBuffer.allocate(12);
    o.put((byte) 30).put((byte) 12).put((byte) 0x01).put((byte) 0x01).putLong(key);
    return frame(src, dst, srcPort, dstPort, 0x12, o.array());
  }

  /** SYN with MP_JOIN: the receiver's token, a nonce, address id 1. */
  static byte[] joinSyn(int src, int dst, int srcPort, int dstPort, int token) {
    ByteBuffer o = ByteBuffer.allocate(12);
    o.put((byte) 30).put((byte) 12).put((byte) 0x10).put((byte) 1).putInt(token).putInt(0x1234);
    return frame(src, dst, srcPort, dstPort, 0x02, o.array());
  }

  private static byte[] frame(int src, int dst, int srcPort, int dstPort, int flags, byte[] opts) {
    int optLen = (opts.length + 3) / 4 * 4;
    int tcpLen = 20 + optLen;
    ByteBuffer b = ByteBuffer.allocate(14 + 20 + tcpLen);
    b.put(new byte[] {2, 0, 0, 0, 0, 1})
        .put(new byte[] {2, 0, 0, 0, 0, 2})
        .putShort((short) 0x0800);
    b.put((byte) 0x45).put((byte) 0).putShort((short) (20 + tcpLen)).putInt(0x40000000);
    b.put((byte) 64).put((byte) 6).putShort((short) 0).putInt(src).putInt(dst);
    b.putShort((short) srcPort).putShort((short) dstPort).putInt(1).putInt(flags == 0x12 ? 2 : 0);
    b.put((byte) ((tcpLen / 4) << 4)).put((byte) flags).putShort((short) 64240).putInt(0);
    b.put(opts);
    return b.array();
  }
}
