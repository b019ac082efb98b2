package org.mpqoe.core.select;

/**
 * QoMRA's congestion index: "a function that increases sharply when the amount of traffic flow
 * passing through the link approaches its capacity". We use the Fortz-Thorup link cost (B. Fortz,
 * M. Thorup, "Internet traffic engineering by optimizing OSPF weights", INFOCOM 2000), divided by
 * the capacity so that it is a function of the utilisation u = load / capacity alone: piecewise
 * linear and convex with slopes 1, 3, 10, 70, 500 and 5000 above the breakpoints 0, 1/3, 2/3, 9/10,
 * 1 and 11/10, continuous, 0 at u = 0.
 *
 * <p>Why this one and not the M/M/1 delay 1/(c - x): the M/M/1 cost is infinite at capacity and
 * undefined beyond, while measured load can exceed a link's nominal capacity and admission fills a
 * link exactly to its capacity; Fortz-Thorup stays finite everywhere, approximates the M/M/1 curve
 * below capacity, and is the standard convex link cost of traffic engineering.
 */
public final class CongestionIndex {
  private static final double[] BREAK = {0, 1.0 / 3, 2.0 / 3, 0.9, 1.0, 1.1};
  private static final double[] SLOPE = {1, 3, 10, 70, 500, 5000};

  private CongestionIndex() {}

  /** The index of a link at utilisation {@code u} (negative values count as 0). */
  public static double of(double u) {
    if (!(u > 0)) {
      return 0;
    }
    double cost = 0;
    for (int i = 0; i < BREAK.length; i++) {
      double end = i + 1 < BREAK.length ? BREAK[i + 1] : Double.POSITIVE_INFINITY;
      if (u <= end) {
        return cost + SLOPE[i] * (u - BREAK[i]);
      }
      cost += SLOPE[i] * (end - BREAK[i]);
    }
    return cost;
  }

  /** The index of a link carrying {@code loadMbps} of {@code capacityMbps}. */
  public static double of(double loadMbps, double capacityMbps) {
    return of(loadMbps / capacityMbps);
  }
}
