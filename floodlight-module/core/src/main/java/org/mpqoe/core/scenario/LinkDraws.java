package org.mpqoe.core.scenario;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.AhrensDieterMarsagliaTsangGammaSampler;
import org.apache.commons.rng.sampling.distribution.PoissonSampler;

/**
 * The count distributions that draw link bandwidth and delay. The GA paper says both were
 * "distributed using a Poisson distribution", but a Poisson has variance equal to its mean while
 * the paper's bandwidth rows do not (CompuServe, 10 clients: mean 13.06, std 6.42). So bandwidth
 * comes from the Poisson family member that matches both moments:
 *
 * <ul>
 *   <li>variance below the mean: a <b>shifted Poisson</b>, {@code (mean - var) + Poisson(var)};
 *   <li>variance above the mean: a <b>negative binomial</b> drawn as a gamma-Poisson mixture
 *       ({@code Poisson(Gamma(shape r, scale mean/r))}, {@code r = mean^2 / (var - mean)}), the
 *       standard over-dispersed Poisson;
 *   <li>variance equal to the mean: a plain Poisson.
 * </ul>
 *
 * A bandwidth draw of 0 is redrawn (a link needs capacity). Delays are Poisson with the range's
 * midpoint as mean, redrawn until they fall in the range.
 */
public final class LinkDraws {
  private LinkDraws() {}

  /** One bandwidth draw in Mbit/s with the given mean and standard deviation. */
  public static double bandwidth(UniformRandomProvider rng, double mean, double std) {
    if (!(mean > 0) || !(std >= 0)) {
      throw new IllegalArgumentException("bandwidth needs mean > 0 and std >= 0");
    }
    double var = std * std;
    for (int attempt = 0; attempt < 10_000; attempt++) {
      double x;
      if (Math.abs(var - mean) < 1e-9) {
        x = PoissonSampler.of(rng, mean).sample();
      } else if (var < mean) {
        x = (mean - var) + (var > 0 ? PoissonSampler.of(rng, var).sample() : 0);
      } else {
        double r = mean * mean / (var - mean);
        double lambda = AhrensDieterMarsagliaTsangGammaSampler.of(rng, r, mean / r).sample();
        x = lambda > 0 ? PoissonSampler.of(rng, lambda).sample() : 0;
      }
      if (x > 0) {
        return x;
      }
    }
    throw new IllegalStateException("bandwidth distribution keeps drawing 0");
  }

  /** One delay draw in ms: Poisson around the midpoint of [min, max], redrawn into the range. */
  public static double delay(UniformRandomProvider rng, double min, double max) {
    double mean = (min + max) / 2;
    if (mean <= 0) {
      return 0;
    }
    var sampler = PoissonSampler.of(rng, mean);
    for (int attempt = 0; attempt < 10_000; attempt++) {
      int x = sampler.sample();
      if (x >= min && x <= max) {
        return x;
      }
    }
    return mean;
  }
}
