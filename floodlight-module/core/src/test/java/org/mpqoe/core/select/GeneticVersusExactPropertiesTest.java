package org.mpqoe.core.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * The GA and the exact solver on random small instances (5-9 switches, random loads, users and
 * thresholds), checked against a brute force over every path set.
 */
class GeneticVersusExactPropertiesTest {
  private static final GaConfig GA = GaConfig.DEFAULTS.withPopulation(60);

  /** A random instance with random users per path and a random thr_cong. */
  static SelectionProblem instance(long seed, int n) {
    SelectionProblem base = BaselinePropertiesTest.instance(seed, n);
    java.util.Random r = new java.util.Random(seed * 31 + 7);
    SelectionConfig c = base.config();
    SelectionConfig config =
        new SelectionConfig(
            0.1 + r.nextDouble() * 0.8,
            0.1 + r.nextDouble() * 0.8,
            c.thrDelayMs(),
            r.nextDouble(),
            c.pdBwReuseMbps(),
            c.pdDelayReuseMs(),
            c.fdDelayBoundMs());
    return new SelectionProblem(
        "c1",
        n,
        base.allCandidates(),
        base.state(),
        p -> Math.floorMod(p.hashCode(), 3),
        config,
        seed);
  }

  @Property(tries = 300)
  void exactSolverFindsTheBruteForceOptimum(
      @ForAll @LongRange(min = 1, max = 1_000_000) long seed,
      @ForAll @IntRange(min = 1, max = 4) int n) {
    SelectionProblem p = instance(seed, n);
    assertEquals(bruteForce(p), new ExactSelector().select(p).score().fitness(), 1e-9);
  }

  /** Small instances (at most 12 candidates): the GA must reach the exact optimum. */
  @Property(tries = 200, seed = "20261122")
  void gaReachesTheOptimumOnSmallInstances(
      @ForAll @LongRange(min = 1, max = 1_000_000) long seed,
      @ForAll @IntRange(min = 1, max = 3) int n) {
    SelectionProblem p = instance(seed, n);
    Assume.that(p.size() <= 12);
    double exact = new ExactSelector().select(p).score().fitness();
    for (GeneticSelector.Variant v : GeneticSelector.Variant.values()) {
      double ga = new GeneticSelector(GA, v).select(p).score().fitness();
      assertEquals(exact, ga, 1e-9, v + ", seed " + seed + ", " + p.size() + " candidates");
    }
  }

  @Property(tries = 300)
  void gaAndExactRespectTheConstraints(
      @ForAll @LongRange(min = 1, max = 1_000_000) long seed,
      @ForAll @IntRange(min = 1, max = 4) int n) {
    SelectionProblem p = instance(seed, n);
    for (PathSelector s :
        List.of(
            new GeneticSelector(GA),
            new GeneticSelector(GA, GeneticSelector.Variant.TUNED),
            new ExactSelector())) {
      Selection sel = s.select(p);
      assertTrue(sel.paths().size() <= n, "at most N paths (eq. 5)");
      assertEquals(sel.paths().size(), sel.distinctPaths().size(), "x is binary (eq. 6)");
      sel.paths()
          .forEach(q -> assertTrue(q.delayMs(p.state()) <= p.config().thrDelayMs(), "eq. 4"));
      for (int i = 0; i < sel.paths().size(); i++) {
        for (int j = i + 1; j < sel.paths().size(); j++) {
          assertTrue(
              !sel.paths()
                  .get(i)
                  .sharesCongestedLink(sel.paths().get(j), p.state(), p.config().thrCong()),
              "eq. 3");
        }
      }
      assertEquals(p.size() > 0, !sel.isEmpty(), "a candidate always yields a selection");
      assertEquals(sel, s.select(p), "deterministic");
    }
  }

  /** Best fitness over every set of 1..N distinct candidates. */
  static double bruteForce(SelectionProblem p) {
    double best = 0;
    int c = p.size();
    List<int[]> frontier = new ArrayList<>();
    frontier.add(new int[0]);
    for (int k = 1; k <= Math.min(p.maxPaths(), c); k++) {
      List<int[]> next = new ArrayList<>();
      for (int[] set : frontier) {
        int from = set.length == 0 ? 0 : set[set.length - 1] + 1;
        for (int j = from; j < c; j++) {
          int[] bigger = Arrays.copyOf(set, set.length + 1);
          bigger[set.length] = j;
          best = Math.max(best, p.fitness(bigger, bigger.length));
          next.add(bigger);
        }
      }
      frontier = next;
    }
    return best;
  }
}
