package org.mpqoe.core.packet;

import java.util.Arrays;

/**
 * One Ethernet frame as it arrives in an OpenFlow packet-in, parsed as far as it goes: Ethernet
 * (with an optional 802.1Q tag), then ARP or IPv4, then TCP. Never throws: a truncated or malformed
 * frame gives the parts read before the problem and a {@link ParseResult} naming it.
 *
 * <p>Parts not present are {@code null}: {@code arp} unless the EtherType is ARP; {@code ipv4}
 * unless it is IPv4; {@code tcp} unless the protocol is TCP and the packet is not a non-first
 * fragment.
 */
public record Frame(ParseResult result, Ethernet ethernet, Arp arp, Ipv4 ipv4, Tcp tcp) {

  public static Frame parse(byte[] b) {
    if (b == null || b.length == 0) {
      return new Frame(ParseResult.EMPTY, null, null, null, null);
    }
    if (b.length < 14) {
      return new Frame(ParseResult.TRUNCATED_ETHERNET, null, null, null, null);
    }
    int type = u16(b, 12);
    int vlan = Ethernet.UNTAGGED;
    int off = 14;
    if (type == Ethernet.TYPE_VLAN) {
      if (b.length < 18) {
        return new Frame(ParseResult.TRUNCATED_VLAN, null, null, null, null);
      }
      vlan = u16(b, 14) & 0x0fff;
      type = u16(b, 16);
      off = 18;
    }
    Ethernet eth = new Ethernet(u48(b, 0), u48(b, 6), vlan, type, off);
    return switch (type) {
      case Ethernet.TYPE_ARP -> parseArp(b, eth);
      case Ethernet.TYPE_IPV4 -> parseIpv4(b, eth);
      default -> new Frame(ParseResult.OK, eth, null, null, null);
    };
  }

  public boolean hasTcp() {
    return tcp != null;
  }

  public boolean hasArp() {
    return arp != null;
  }

  private static Frame parseArp(byte[] b, Ethernet eth) {
    int off = eth.headerLength();
    if (b.length - off < Arp.LENGTH) {
      return new Frame(ParseResult.TRUNCATED_ARP, eth, null, null, null);
    }
    if (u16(b, off) != 1
        || u16(b, off + 2) != Ethernet.TYPE_IPV4
        || u8(b, off + 4) != 6
        || u8(b, off + 5) != 4) {
      return new Frame(ParseResult.BAD_ARP, eth, null, null, null);
    }
    Arp arp =
        new Arp(
            u16(b, off + 6), u48(b, off + 8), s32(b, off + 14), u48(b, off + 18), s32(b, off + 24));
    return new Frame(ParseResult.OK, eth, arp, null, null);
  }

  private static Frame parseIpv4(byte[] b, Ethernet eth) {
    int off = eth.headerLength();
    int avail = b.length - off;
    if (avail < Ipv4.MIN_HEADER) {
      return new Frame(ParseResult.TRUNCATED_IPV4, eth, null, null, null);
    }
    if (u8(b, off) >> 4 != 4) {
      return new Frame(ParseResult.BAD_IPV4_VERSION, eth, null, null, null);
    }
    int ihl = u8(b, off) & 0x0f;
    if (ihl < 5) {
      return new Frame(ParseResult.BAD_IPV4_IHL, eth, null, null, null);
    }
    if (avail < ihl * 4) {
      return new Frame(ParseResult.TRUNCATED_IPV4, eth, null, null, null);
    }
    int totalLength = u16(b, off + 2);
    if (totalLength < ihl * 4) {
      return new Frame(ParseResult.BAD_IPV4_TOTAL_LENGTH, eth, null, null, null);
    }
    int frag = u16(b, off + 6);
    Ipv4 ip =
        new Ipv4(
            ihl,
            totalLength,
            (frag & 0x2000) != 0,
            frag & 0x1fff,
            u8(b, off + 8),
            u8(b, off + 9),
            s32(b, off + 12),
            s32(b, off + 16));
    if (ip.protocol() != Ipv4.PROTOCOL_TCP) {
      return new Frame(ParseResult.OK, eth, null, ip, null);
    }
    if (ip.fragmentOffset() > 0) {
      return new Frame(ParseResult.IPV4_FRAGMENT, eth, null, ip, null);
    }
    return parseTcp(b, eth, ip);
  }

  /** The TCP header must fit both the bytes present and the IPv4 total length. */
  private static Frame parseTcp(byte[] b, Ethernet eth, Ipv4 ip) {
    int off = eth.headerLength() + ip.headerLength();
    int end = Math.min(b.length, eth.headerLength() + ip.totalLength());
    if (end - off < Tcp.MIN_HEADER) {
      return new Frame(ParseResult.TRUNCATED_TCP, eth, null, ip, null);
    }
    int dataOffset = u8(b, off + 12) >> 4;
    if (dataOffset < 5) {
      return new Frame(ParseResult.BAD_TCP_DATA_OFFSET, eth, null, ip, null);
    }
    if (end - off < dataOffset * 4) {
      return new Frame(ParseResult.TRUNCATED_TCP, eth, null, ip, null);
    }
    Tcp tcp =
        new Tcp(
            u16(b, off),
            u16(b, off + 2),
            s32(b, off + 4) & 0xffffffffL,
            s32(b, off + 8) & 0xffffffffL,
            dataOffset,
            u8(b, off + 13),
            u16(b, off + 14),
            Arrays.copyOfRange(b, off + Tcp.MIN_HEADER, off + dataOffset * 4),
            ip.totalLength() - ip.headerLength() - dataOffset * 4);
    return new Frame(ParseResult.OK, eth, null, ip, tcp);
  }

  static int u8(byte[] b, int i) {
    return b[i] & 0xff;
  }

  static int u16(byte[] b, int i) {
    return (u8(b, i) << 8) | u8(b, i + 1);
  }

  static int s32(byte[] b, int i) {
    return (u16(b, i) << 16) | u16(b, i + 2);
  }

  static long u48(byte[] b, int i) {
    return ((long) u16(b, i) << 32) | (s32(b, i + 2) & 0xffffffffL);
  }
}
