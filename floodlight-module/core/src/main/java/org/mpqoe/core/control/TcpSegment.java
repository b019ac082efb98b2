package org.mpqoe.core.control;

import org.mpqoe.core.mptcp.MptcpHandshake;
import org.mpqoe.core.packet.Frame;

/**
 * A TCP segment as the controller sees it in a packet-in.
 *
 * @param frame the whole Ethernet frame, to send on with a packet-out
 */
public record TcpSegment(
    long dpid,
    int inPort,
    int srcIp,
    int dstIp,
    int srcPort,
    int dstPort,
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
        signal,
        frame);
  }

  /** The subflow direction this segment travels: the match of every rule about it. */
  public FlowMatch.Subflow match() {
    return new FlowMatch.Subflow(srcIp, dstIp, srcPort, dstPort);
  }
}
