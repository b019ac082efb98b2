package org.mpqoe.core.select;

/**
 * Parameters shared by every selector: the objective's weights and the GA paper's constraints, and
 * the thresholds of the baselines. Defaults live here and only here.
 *
 * @param alpha weight of the delay-difference term (eq. 7)
 * @param beta weight of the bandwidth term (eq. 7)
 * @param thrDelayMs paths slower than this are not candidates (eq. 4)
 * @param thrCong a link shared by two chosen paths may not be more congested than this (eq. 3)
 * @param pdBwReuseMbps pd-bw: a chosen path's link may be reused if it has more than this free
 * @param pdDelayReuseMs pd-delay: a chosen path's link may be reused if its latency is below this
 * @param fdDelayBoundMs fd-delay: upper bound on a path's delay
 */
public record SelectionConfig(
    double alpha,
    double beta,
    double thrDelayMs,
    double thrCong,
    double pdBwReuseMbps,
    double pdDelayReuseMs,
    double fdDelayBoundMs) {

  /**
   * The defaults. Weights: the paper gives eq. 7 without values; its authors' framework weighs the
   * normalised bandwidth sum 0.6 and one minus the normalised delay difference 0.4
   * (GeneticAlgorithm/Chromosome.java's fitness), so beta = 0.6 and alpha = 0.4. The thresholds are
   * this project's choice (docs/algorithms.md).
   */
  public static final SelectionConfig DEFAULTS =
      new SelectionConfig(0.4, 0.6, 300.0, 0.8, 2.0, 40.0, 300.0);

  public SelectionConfig {
    if (!(alpha >= 0) || !(beta >= 0) || alpha + beta <= 0) {
      throw new IllegalArgumentException("alpha and beta must be >= 0 and not both 0");
    }
    if (!(thrDelayMs > 0)) {
      throw new IllegalArgumentException("thr_delay must be positive");
    }
    if (!(thrCong >= 0)) {
      throw new IllegalArgumentException("thr_cong must be >= 0");
    }
    if (!(pdBwReuseMbps >= 0) || !(pdDelayReuseMs >= 0)) {
      throw new IllegalArgumentException("pd-bw and pd-delay reuse thresholds must be >= 0");
    }
    if (!(fdDelayBoundMs > 0)) {
      throw new IllegalArgumentException("the fd-delay bound must be positive");
    }
  }

  public SelectionConfig withWeights(double newAlpha, double newBeta) {
    return new SelectionConfig(
        newAlpha, newBeta, thrDelayMs, thrCong, pdBwReuseMbps, pdDelayReuseMs, fdDelayBoundMs);
  }

  public SelectionConfig withThresholds(double newThrDelayMs, double newThrCong) {
    return new SelectionConfig(
        alpha, beta, newThrDelayMs, newThrCong, pdBwReuseMbps, pdDelayReuseMs, fdDelayBoundMs);
  }
}
