package org.mpqoe.core.control;

/**
 * Rule cookies: the top 16 bits say "mpqoe" (0x4D51, "MQ"), then 8 bits the kind of rule, 24 bits
 * the connection id, 8 bits a generation (bumped when a subflow moves, so the removal of its old
 * rules is not mistaken for the end of the new ones) and 8 bits the subflow index.
 */
public final class Cookies {
  public static final long APP = 0x4D51L << 48;
  public static final long APP_MASK = 0xFFFFL << 48;

  /** Kinds of rule. */
  public static final int SUBFLOW = 1;

  public static final int LABEL = 2;
  public static final int DELIVERY = 3;
  public static final int TABLE_MISS = 4;
  public static final int PLAIN = 5;

  /** The largest connection id the cookie can carry (24 bits); ids start at 1. */
  public static final int MAX_CONNECTION = 0xFFFFFF;

  private Cookies() {}

  public static long of(int kind, int connection, int generation, int subflow) {
    return APP
        | ((long) (kind & 0xFF) << 40)
        | ((long) (connection & 0xFFFFFF) << 16)
        | ((long) (generation & 0xFF) << 8)
        | (subflow & 0xFF);
  }

  /** A cookie of a kind that is not about a connection. */
  public static long of(int kind) {
    return of(kind, 0, 0, 0);
  }

  /** Selects every rule of one connection: app, kind and connection bits. */
  public static final long CONNECTION_MASK = APP_MASK | (0xFFL << 40) | (0xFFFFFFL << 16);

  /** Selects exactly one cookie. */
  public static final long EXACT = -1L;

  public static boolean isOurs(long cookie) {
    return (cookie & APP_MASK) == APP;
  }

  public static int kind(long cookie) {
    return (int) ((cookie >>> 40) & 0xFF);
  }

  public static int connection(long cookie) {
    return (int) ((cookie >>> 16) & 0xFFFFFF);
  }

  public static int generation(long cookie) {
    return (int) ((cookie >>> 8) & 0xFF);
  }

  public static int subflow(long cookie) {
    return (int) (cookie & 0xFF);
  }
}
