package org.mpqoe.core.control;

import org.mpqoe.core.mptcp.MptcpHandshake;
import org.mpqoe.core.packet.Frame;
import org.mpqoe.core.packet.Tcp;

/**
 * A TCP segment as the controller sees it in a packet-in.
 *
 * @param flags the TCP flags (byte 13 of the header, {@link Tcp#SYN} ...)
 * @param frame the whole Ethernet frame, to send on with a packet-out
 */
public record TcpSegment(
    long dpid,
    int inPort,
    int srcIp,
    int dstIp,
    int srcPort,
    int dstPort,
    int flags,
    MptcpHandshake signal,
    byte[] frame) {

  /** The segment of a parsed IPv4/TCP frame, with its classification. */
  public static TcpSegment of(long dpid, int inPort, Frame f, byte[] frame, MptcpHandshake signal) {
    return new TcpSegment(
        dpid,
        inPort,
        f.ipv4().src(),
        f.ipv4().dst(),
        f.tcp().srcPort(),
        f.tcp().dstPort(),
        f.tcp().flags(),
        signal,
        frame);
  }

  /** True for a SYN/ACK (SYN and ACK set). */
  public boolean isSynAck() {
    return (flags & (Tcp.SYN | Tcp.ACK)) == (Tcp.SYN | Tcp.ACK);
  }

  /** The subflow direction this segment travels: the match of every rule about it. */
  public FlowMatch.Subflow match() {
    return new FlowMatch.Subflow(srcIp, dstIp, srcPort, dstPort);
  }
}
