package org.mpqoe.core.packet;

/**
 * IPv4 addresses as {@code int} (first octet in the high byte) and MACs as {@code long} (first
 * octet in bits 47-40), to and from their usual text forms.
 */
public final class Addresses {
  private Addresses() {}

  /** {@code 0x0a000001} as {@code "10.0.0.1"}. */
  public static String formatIpv4(int ip) {
    return (ip >>> 24) + "." + ((ip >>> 16) & 0xff) + "." + ((ip >>> 8) & 0xff) + "." + (ip & 0xff);
  }

  /** The low 48 bits as {@code "02:00:00:00:0c:00"}. */
  public static String formatMac(long mac) {
    StringBuilder s = new StringBuilder(17);
    for (int shift = 40; shift >= 0; shift -= 8) {
      s.append(Character.forDigit((int) (mac >>> (shift + 4)) & 0xf, 16))
          .append(Character.forDigit((int) (mac >>> shift) & 0xf, 16));
      if (shift > 0) {
        s.append(':');
      }
    }
    return s.toString();
  }

  /**
   * Dotted quad to int.
   *
   * @throws IllegalArgumentException unless four decimal octets 0-255
   */
  public static int parseIpv4(String text) {
    String[] parts = text.split("\\.", -1);
    if (parts.length != 4) {
      throw new IllegalArgumentException("not an IPv4 address: " + text);
    }
    int ip = 0;
    for (String part : parts) {
      int octet = parseField(part, 10, 3, 255, text);
      ip = (ip << 8) | octet;
    }
    return ip;
  }

  /**
   * Six colon-separated hex octets to long.
   *
   * @throws IllegalArgumentException unless six hex octets
   */
  public static long parseMac(String text) {
    String[] parts = text.split(":", -1);
    if (parts.length != 6) {
      throw new IllegalArgumentException("not a MAC address: " + text);
    }
    long mac = 0;
    for (String part : parts) {
      mac = (mac << 8) | parseField(part, 16, 2, 255, text);
    }
    return mac;
  }

  private static int parseField(String part, int radix, int maxDigits, int max, String text) {
    boolean digits =
        !part.isEmpty()
            && part.length() <= maxDigits
            && part.chars().allMatch(c -> c < 128 && Character.digit(c, radix) >= 0);
    int value = digits ? Integer.parseInt(part, radix) : -1;
    if (value < 0 || value > max) {
      throw new IllegalArgumentException("bad address: " + text);
    }
    return value;
  }
}
