package org.mpqoe.core.packet;

/**
 * An Ethernet II header, with the 802.1Q tag if there was one.
 *
 * @param dst destination MAC in the low 48 bits
 * @param src source MAC in the low 48 bits
 * @param vlanId the 12-bit VLAN id of an 802.1Q tag, or {@link #UNTAGGED}
 * @param etherType the EtherType after the tag, if any
 * @param headerLength 14, or 18 with a tag: where the payload starts
 */
public record Ethernet(long dst, long src, int vlanId, int etherType, int headerLength) {
  public static final int UNTAGGED = -1;
  public static final int TYPE_IPV4 = 0x0800;
  public static final int TYPE_ARP = 0x0806;
  public static final int TYPE_VLAN = 0x8100;

  public boolean tagged() {
    return vlanId != UNTAGGED;
  }

  @Override
  public String toString() {
    return "Ethernet["
        + Addresses.formatMac(src)
        + " > "
        + Addresses.formatMac(dst)
        + (tagged() ? " vlan " + vlanId : "")
        + String.format(" type 0x%04x]", etherType);
  }
}
