package org.mpqoe.core.mptcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.mpqoe.core.mptcp.ParseStats.Counter;

/** The sums {@link ParseStats} promises. */
final class StatsInvariants {
  private StatsInvariants() {}

  static void check(ParseStats s) {
    assertEquals(
        s.get(Counter.LISTS),
        s.get(Counter.END_OF_LIST)
            + s.get(Counter.EXHAUSTED)
            + s.get(Counter.BAD_LENGTH)
            + s.get(Counter.TRUNCATED),
        () -> "every walk ends one way: " + s);
    assertEquals(
        s.get(Counter.MPTCP),
        s.get(Counter.MP_CAPABLE)
            + s.get(Counter.MP_JOIN)
            + s.get(Counter.OTHER_SUBTYPE)
            + s.get(Counter.UNKNOWN_MPTCP_SUBTYPE)
            + s.get(Counter.MPTCP_TOO_SHORT)
            + s.get(Counter.MP_CAPABLE_BAD_LENGTH)
            + s.get(Counter.MP_JOIN_BAD_LENGTH),
        () -> "every kind-30 option is counted once: " + s);
  }
}
