package org.mpqoe.core.packet;

import java.util.Optional;

/**
 * Builds the Ethernet frame of an ARP reply, so that a controller can answer ARP requests from what
 * it knows of the topology. The frame is 42 bytes (46 with a VLAN tag), unpadded: switches pad to
 * the 60-byte minimum when they send it.
 */
public final class ArpReply {
  private ArpReply() {}

  /**
   * An untagged reply "senderIp is at senderMac", sent from senderMac to targetMac.
   *
   * @param senderMac the MAC being announced (also the Ethernet source)
   * @param senderIp the address it answers for
   * @param targetMac the requester's MAC (also the Ethernet destination)
   * @param targetIp the requester's address
   */
  public static byte[] build(long senderMac, int senderIp, long targetMac, int targetIp) {
    return build(senderMac, senderIp, targetMac, targetIp, Ethernet.UNTAGGED);
  }

  /**
   * As {@link #build(long, int, long, int)}, with an 802.1Q tag unless vlanId is {@link
   * Ethernet#UNTAGGED}.
   *
   * @throws IllegalArgumentException if vlanId is neither UNTAGGED nor 0-4095
   */
  public static byte[] build(
      long senderMac, int senderIp, long targetMac, int targetIp, int vlanId) {
    if (vlanId != Ethernet.UNTAGGED && (vlanId < 0 || vlanId > 0x0fff)) {
      throw new IllegalArgumentException("VLAN id out of range: " + vlanId);
    }
    int off = vlanId == Ethernet.UNTAGGED ? 14 : 18;
    byte[] b = new byte[off + Arp.LENGTH];
    put48(b, 0, targetMac);
    put48(b, 6, senderMac);
    if (vlanId != Ethernet.UNTAGGED) {
      put16(b, 12, Ethernet.TYPE_VLAN);
      put16(b, 14, vlanId);
    }
    put16(b, off - 2, Ethernet.TYPE_ARP);
    put16(b, off, 1); // htype Ethernet
    put16(b, off + 2, Ethernet.TYPE_IPV4);
    b[off + 4] = 6;
    b[off + 5] = 4;
    put16(b, off + 6, Arp.REPLY);
    put48(b, off + 8, senderMac);
    put32(b, off + 14, senderIp);
    put48(b, off + 18, targetMac);
    put32(b, off + 24, targetIp);
    return b;
  }

  /**
   * The reply to a parsed ARP request for an address whose MAC is {@code resolvedMac}, on the
   * request's VLAN; empty if the frame is not an ARP request.
   */
  public static Optional<byte[]> answering(Frame request, long resolvedMac) {
    if (request == null || request.arp() == null || request.arp().op() != Arp.REQUEST) {
      return Optional.empty();
    }
    Arp arp = request.arp();
    return Optional.of(
        build(
            resolvedMac,
            arp.targetIp(),
            arp.senderMac(),
            arp.senderIp(),
            request.ethernet().vlanId()));
  }

  private static void put16(byte[] b, int i, int v) {
    b[i] = (byte) (v >>> 8);
    b[i + 1] = (byte) v;
  }

  private static void put32(byte[] b, int i, int v) {
    put16(b, i, v >>> 16);
    put16(b, i + 2, v);
  }

  private static void put48(byte[] b, int i, long v) {
    put16(b, i, (int) (v >>> 32));
    put32(b, i + 2, (int) v);
  }
}
