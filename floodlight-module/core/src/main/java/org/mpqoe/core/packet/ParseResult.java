package org.mpqoe.core.packet;

/**
 * How far {@link Frame#parse} got. {@link #OK} means every header the frame announced and this
 * parser knows (Ethernet, 802.1Q, ARP, IPv4, TCP) was read; other EtherTypes and IP protocols are
 * {@code OK} with the inner parts absent. Every other value names the first problem met; the parts
 * before it are still in the {@link Frame}.
 */
public enum ParseResult {
  OK,
  /** A null or empty array. */
  EMPTY,
  /** Fewer than 14 bytes. */
  TRUNCATED_ETHERNET,
  /** An 802.1Q TPID without the 4 more bytes of tag and EtherType. */
  TRUNCATED_VLAN,
  /** An ARP EtherType with fewer than 28 bytes of ARP. */
  TRUNCATED_ARP,
  /** ARP for something other than Ethernet (htype 1, hlen 6) and IPv4 (ptype 0x0800, plen 4). */
  BAD_ARP,
  /** Fewer than 20 bytes of IPv4 header, or fewer than IHL * 4. */
  TRUNCATED_IPV4,
  /** An IPv4 EtherType whose version nibble is not 4. */
  BAD_IPV4_VERSION,
  /** IHL below 5. */
  BAD_IPV4_IHL,
  /** A total length shorter than the IPv4 header. */
  BAD_IPV4_TOTAL_LENGTH,
  /** A fragment with offset above 0: it has no TCP header, so it is left alone (not an error). */
  IPV4_FRAGMENT,
  /** Fewer than 20 bytes of TCP header, or fewer than data offset * 4, within the IPv4 packet. */
  TRUNCATED_TCP,
  /** A data offset below 5. */
  BAD_TCP_DATA_OFFSET;

  /** True for {@link #OK} and {@link #IPV4_FRAGMENT}: nothing wrong, only something skipped. */
  public boolean wellFormed() {
    return this == OK || this == IPV4_FRAGMENT;
  }
}
