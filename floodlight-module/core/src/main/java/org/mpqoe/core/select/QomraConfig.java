package org.mpqoe.core.select;

/**
 * QoMRA's parameters (Barakabitze et al., ICC 2018). The paper names k, the interval t and the
 * requested resolution but gives no values for k, t or the weights; the defaults are this project's
 * (docs/algorithms.md, "QoMRA").
 *
 * @param k how many shortest paths a flow's subflows are chosen from, and how many shortest paths
 *     of each recorded demand link criticality counts
 * @param intervalS link criticality is recomputed at the first selection at least this many seconds
 *     after the last computation (the paper's interval t)
 * @param resolution the requested resolution; its required throughput is b_r, what every admitted
 *     subflow reserves on each link of its path
 * @param delayWeight weight of a link's delay (normalised by the largest link delay)
 * @param lossWeight weight of a link's loss rate (normalised by the largest loss rate)
 * @param criticalityWeight weight of link criticality (normalised by the largest criticality)
 * @param congestionWeight weight of the congestion index (Fortz-Thorup, not normalised)
 */
public record QomraConfig(
    int k,
    double intervalS,
    Resolution resolution,
    double delayWeight,
    double lossWeight,
    double criticalityWeight,
    double congestionWeight) {

  /** k = 3 (the paper's at most 3 subflows), t = 10 s, 480p, all weights 1. */
  public static final QomraConfig DEFAULTS = new QomraConfig(3, 10.0, Resolution.P480, 1, 1, 1, 1);

  /** The largest k accepted; more shortest paths than this only slow the ranking down. */
  public static final int MAX_K = 64;

  public QomraConfig {
    if (k < 1 || k > MAX_K) {
      throw new IllegalArgumentException("QoMRA k must be 1.." + MAX_K + ", got " + k);
    }
    if (!(intervalS > 0) || Double.isInfinite(intervalS)) {
      throw new IllegalArgumentException("QoMRA interval t must be a positive number of seconds");
    }
    if (resolution == null) {
      throw new IllegalArgumentException("QoMRA needs a requested resolution");
    }
    double[] w = {delayWeight, lossWeight, criticalityWeight, congestionWeight};
    double sum = 0;
    for (double x : w) {
      if (!(x >= 0) || Double.isInfinite(x)) {
        throw new IllegalArgumentException("QoMRA weights must be finite and >= 0");
      }
      sum += x;
    }
    if (sum <= 0) {
      throw new IllegalArgumentException("QoMRA weights must not all be 0");
    }
  }

  /** b_r in Mbit/s. */
  public double requiredMbps() {
    return resolution.rateMbps();
  }

  public QomraConfig withK(int newK) {
    return new QomraConfig(
        newK, intervalS, resolution, delayWeight, lossWeight, criticalityWeight, congestionWeight);
  }

  public QomraConfig withIntervalS(double newIntervalS) {
    return new QomraConfig(
        k, newIntervalS, resolution, delayWeight, lossWeight, criticalityWeight, congestionWeight);
  }

  public QomraConfig withResolution(Resolution newResolution) {
    return new QomraConfig(
        k, intervalS, newResolution, delayWeight, lossWeight, criticalityWeight, congestionWeight);
  }

  public QomraConfig withWeights(double delay, double loss, double criticality, double congestion) {
    return new QomraConfig(k, intervalS, resolution, delay, loss, criticality, congestion);
  }
}
