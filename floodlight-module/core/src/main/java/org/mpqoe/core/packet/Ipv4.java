package org.mpqoe.core.packet;

/**
 * An IPv4 header.
 *
 * @param ihl header length in 32-bit words (5 to 15)
 * @param totalLength header plus payload, in bytes, as the header says (a packet-in may hold fewer)
 * @param moreFragments the MF flag
 * @param fragmentOffset in 8-byte units
 * @param ttl time to live
 * @param protocol 6 for TCP
 * @param src source address, network order packed into an int
 * @param dst destination address
 */
public record Ipv4(
    int ihl,
    int totalLength,
    boolean moreFragments,
    int fragmentOffset,
    int ttl,
    int protocol,
    int src,
    int dst) {
  public static final int PROTOCOL_TCP = 6;
  public static final int MIN_HEADER = 20;

  public int headerLength() {
    return ihl * 4;
  }

  @Override
  public String toString() {
    return "Ipv4["
        + Addresses.formatIpv4(src)
        + " > "
        + Addresses.formatIpv4(dst)
        + " proto "
        + protocol
        + " len "
        + totalLength
        + (fragmentOffset > 0 ? " frag " + fragmentOffset : "")
        + "]";
  }
}
