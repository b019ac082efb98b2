package org.mpqoe.core.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mpqoe.core.topology.LinkModel;

class LinkDrawsTest {
  private static final int SAMPLES = 200_000;

  /** Every row of the GA paper: under-dispersed (shifted Poisson) and over-dispersed (NB). */
  @ParameterizedTest(name = "mean {0}, std {1}")
  @CsvSource({
    "7.33, 2.46", "13.06, 6.42", "21.64, 7.76", "23.21, 12.99",
    "6.7, 2.5", "14.09, 6.12", "20.38, 6.87", "20.12, 10.35",
    "6.91, 2.16", "13.7, 5.98", "19.38, 7.77", "21.16, 13.03"
  })
  void bandwidthDrawsReproduceThePapersMeanAndStd(double mean, double std) {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(42L);
    double[] xs = new double[SAMPLES];
    for (int i = 0; i < SAMPLES; i++) {
      xs[i] = LinkDraws.bandwidth(rng, mean, std);
      assertTrue(xs[i] > 0);
    }
    LinkModel.Moments m = ScenarioGenerator.moments(xs);
    // Redrawing zeros truncates the NB a little; 2 % covers it and the sampling error.
    assertEquals(mean, m.mean(), 0.02 * mean);
    assertEquals(std, m.std(), 0.02 * std);
  }

  @Test
  void delaysArePoissonInsideTheRange() {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(1L);
    double sum = 0;
    for (int i = 0; i < SAMPLES; i++) {
      double d = LinkDraws.delay(rng, 10, 100);
      assertTrue(d >= 10 && d <= 100);
      assertEquals(Math.rint(d), d, "a count");
      sum += d;
    }
    assertEquals(55, sum / SAMPLES, 0.2);
  }
}
