package org.mpqoe.core.packet;

/**
 * An ARP packet for IPv4 over Ethernet.
 *
 * @param op {@link #REQUEST}, {@link #REPLY} or whatever the frame said
 * @param senderMac in the low 48 bits
 * @param senderIp IPv4 address, network order packed into an int
 * @param targetMac in the low 48 bits (zero in a request)
 * @param targetIp IPv4 address
 */
public record Arp(int op, long senderMac, int senderIp, long targetMac, int targetIp) {
  public static final int REQUEST = 1;
  public static final int REPLY = 2;

  /** Bytes of an ARP packet for Ethernet and IPv4. */
  public static final int LENGTH = 28;

  @Override
  public String toString() {
    return "Arp[op "
        + op
        + " "
        + Addresses.formatMac(senderMac)
        + "/"
        + Addresses.formatIpv4(senderIp)
        + " > "
        + Addresses.formatMac(targetMac)
        + "/"
        + Addresses.formatIpv4(targetIp)
        + "]";
  }
}
