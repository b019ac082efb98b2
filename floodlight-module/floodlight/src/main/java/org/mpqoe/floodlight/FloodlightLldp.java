package org.mpqoe.floodlight;

import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * Reads what Floodlight's link discovery writes into its LLDP probes: the sending switch (its DPID
 * in an organisationally specific TLV with the OpenFlow OUI 00-26-E1, subtype 0), the sending port
 * (the port ID TLV, subtype 2: locally assigned, two bytes) and the send time (the same OUI,
 * subtype 1: {@code System.nanoTime() / 1e6} in whole milliseconds plus Floodlight's estimate of
 * the sending switch's one-way control latency at send time). The format is Floodlight's
 * (LinkDiscoveryManager), described here from its frames; BDDP probes are the same LLDP payload
 * under another EtherType. Never throws: a frame that is not such a probe is empty.
 */
final class FloodlightLldp {
  /** LLDP's EtherType, and Floodlight's BDDP. */
  static final int LLDP = 0x88cc;

  static final int BDDP = 0x8942;

  private FloodlightLldp() {}

  /**
   * One of Floodlight's probes as received.
   *
   * @param stampMs the timestamp TLV's value: send time in ms plus the sender's latency estimate
   */
  record Probe(long srcDpid, int srcPort, long stampMs) {}

  /** The probe in an Ethernet frame (an untagged one, as Floodlight sends them), if it is one. */
  static Optional<Probe> parse(byte[] frame) {
    if (frame == null || frame.length < 14) {
      return Optional.empty();
    }
    ByteBuffer b = ByteBuffer.wrap(frame);
    int type = b.getShort(12) & 0xffff;
    if (type != LLDP && type != BDDP) {
      return Optional.empty();
    }
    b.position(14);
    Long dpid = null;
    Integer port = null;
    Long stamp = null;
    while (b.remaining() >= 2) {
      int head = b.getShort() & 0xffff;
      int tlvType = head >>> 9;
      int len = head & 0x1ff;
      if (tlvType == 0 || len > b.remaining()) {
        break; // End of LLDPDU, or a TLV cut short
      }
      int at = b.position();
      if (tlvType == 2 && len == 3 && b.get(at) == 2) {
        port = b.getShort(at + 1) & 0xffff;
      } else if (tlvType == 127 && len == 12 && openFlowOui(b, at)) {
        if (b.get(at + 3) == 0) {
          dpid = b.getLong(at + 4);
        } else if (b.get(at + 3) == 1) {
          stamp = b.getLong(at + 4);
        }
      }
      b.position(at + len);
    }
    if (dpid == null || port == null || stamp == null) {
      return Optional.empty();
    }
    return Optional.of(new Probe(dpid, port, stamp));
  }

  /**
   * The probe's time from its packet-out to its packet-in, as Floodlight's own link discovery
   * computes it before taking out the receiving switch's latency: now minus the stamp plus the
   * sender's latency estimate (which the stamp includes). {@code senderLatencyMs} is the sender's
   * current estimate; Floodlight updates it rarely, so it is the one the stamp holds but for a
   * change in between. Now is {@code nowNanos} in ms with its fraction, so that only the stamp is
   * whole ms: its send time was up to 1 ms later than the stamp says, and the result is up to 1 ms
   * longer than the probe took, never shorter.
   */
  static double elapsedMs(Probe p, long nowNanos, long senderLatencyMs) {
    return nowNanos / 1e6 - p.stampMs() + senderLatencyMs;
  }

  private static boolean openFlowOui(ByteBuffer b, int at) {
    return b.get(at) == 0 && b.get(at + 1) == 0x26 && b.get(at + 2) == (byte) 0xe1;
  }
}
