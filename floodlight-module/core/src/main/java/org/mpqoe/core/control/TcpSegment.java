package org.mpqoe.core.control;

import org.mpqoe.core.mptcp.MptcpHandshake;

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

  public FlowMatch.Subflow match() {
    return new FlowMatch.Subflow(srcIp, dstIp, srcPort, dstPort);
  }
}
