package org.mpqoe.core.mptcp;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * What MPTCP derives from a key (RFC 8684 section 3.1, RFC 6824 section 3.1): the hash of the
 * 8-byte key in network order, SHA-256 for version 1 and SHA-1 for version 0. The token, which
 * names the connection in MP_JOIN SYNs sent to the key's owner, is its most significant 32 bits;
 * the initial data sequence number (IDSN) its least significant 64 bits.
 */
public final class Tokens {
  private Tokens() {}

  /** The token of {@code key} for MPTCP {@code version} (0: SHA-1, otherwise SHA-256). */
  public static int token(long key, int version) {
    byte[] h = hash(key, version);
    return ((h[0] & 0xff) << 24) | ((h[1] & 0xff) << 16) | ((h[2] & 0xff) << 8) | (h[3] & 0xff);
  }

  /** The IDSN of {@code key}'s owner: the first data byte it sends has sequence number IDSN + 1. */
  public static long idsn(long key, int version) {
    byte[] h = hash(key, version);
    long v = 0;
    for (int i = h.length - 8; i < h.length; i++) {
      v = (v << 8) | (h[i] & 0xff);
    }
    return v;
  }

  /** A token as 8 lower-case hex digits. */
  public static String hex(int token) {
    return String.format("%08x", token);
  }

  private static byte[] hash(long key, int version) {
    byte[] k = new byte[8];
    for (int i = 0; i < 8; i++) {
      k[i] = (byte) (key >>> (56 - 8 * i));
    }
    try {
      return MessageDigest.getInstance(version == 0 ? "SHA-1" : "SHA-256").digest(k);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-1 and SHA-256", e);
    }
  }
}
