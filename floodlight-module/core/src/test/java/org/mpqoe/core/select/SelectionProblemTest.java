package org.mpqoe.core.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.Graphs;
import org.mpqoe.core.path.CandidatePaths;
import org.mpqoe.core.path.LinkState;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.topology.Topology;

/**
 * The objective on a hand-worked instance. From a to d: abd (delay 2), acd (4), abcd (8), acbd (8),
 * aefd (3). Loads: a-b 6 of 10, c-d 5 of 10, e-f 8 of 10; acd already has one user. So abw: abd 4,
 * acd 5, aefd 2; shares: abd 4, acd 2.5, aefd 2.
 */
class SelectionProblemTest {
  static final Topology DIAMOND =
      Graphs.of(
          "a-b 10 1",
          "b-d 10 1",
          "a-c 10 2",
          "c-d 10 2",
          "a-e 10 1",
          "e-f 10 1",
          "f-d 10 1",
          "b-c 10 5");
  static final LinkState LOADED =
      LinkState.nominal(DIAMOND).withLoads(new double[] {6, 0, 0, 5, 0, 8, 0, 0});
  static final List<Path> CANDIDATES =
      new CandidatePaths(DIAMOND, 8)
          .between(DIAMOND.requireSwitch("a"), DIAMOND.requireSwitch("d"));

  static SelectionProblem problem(int n, double alpha, double beta, double thrDelay) {
    SelectionConfig config =
        SelectionConfig.DEFAULTS.withWeights(alpha, beta).withThresholds(thrDelay, 0.5);
    return new SelectionProblem(
        "c1",
        n,
        CANDIDATES,
        LOADED,
        p -> p.switchNames(DIAMOND).equals(List.of("a", "c", "d")) ? 1 : 0,
        config,
        7);
  }

  @Test
  void thrDelayRemovesSlowPathsBeforeTheSearch() {
    SelectionProblem p = problem(2, 0.5, 0.5, 5);
    assertEquals(
        List.of(List.of("a", "b", "d"), List.of("a", "c", "d"), List.of("a", "e", "f", "d")),
        p.candidates().stream().map(q -> q.switchNames(DIAMOND)).toList());
    assertEquals(5, p.allCandidates().size());
  }

  @Test
  void perPathQuantities() {
    SelectionProblem p = problem(2, 0.5, 0.5, 5);
    assertArray(new double[] {2, 4, 3}, i -> p.delayMs(i));
    assertArray(new double[] {4, 5, 2}, i -> p.availableMbps(i));
    assertArray(new double[] {4, 2.5, 2}, i -> p.share(i));
    assertEquals(2.0, p.zetaMax(), 1e-12, "C(2,2) * (4 - 2)");
    assertEquals(6.5, p.xiMax(), 1e-12, "4 + 2.5");
  }

  @Test
  void fitnessIsEquationSevenOnNormalisedValues() {
    SelectionProblem p = problem(2, 0.5, 0.5, 5);
    assertEquals(0.5, p.fitness(new int[] {0, 1}, 2), 1e-9, "zeta 2/2, xi 6.5/6.5");
    assertEquals(0.25 + 0.5 * 6 / 6.5, p.fitness(new int[] {0, 2}, 2), 1e-9);
    assertEquals(0.5 + 0.5 * 4 / 6.5, p.fitness(new int[] {0}, 1), 1e-9);
    Score s = p.score(new int[] {1, 2});
    assertEquals(1.0, s.zeta(), 1e-12);
    assertEquals(4.5, s.xi(), 1e-12);
    assertTrue(s.feasible());
  }

  @Test
  void sharingACongestedLinkMakesFitnessZero() {
    // With thr_delay 10 every path is a candidate; abd and abcd share a-b at 0.6 > 0.5.
    SelectionProblem p = problem(3, 0.5, 0.5, 10);
    int abd = 0;
    int acd = 1;
    int abcd = 2;
    assertTrue(p.conflict(abd, abcd));
    assertFalse(p.conflict(abd, acd), "they share nothing");
    assertEquals(0.0, p.fitness(new int[] {abd, abcd}, 2));
    assertFalse(p.score(new int[] {abd, abcd}).feasible());
    // acd and acbd share a-c (load 0) and ... a-c only: not congested.
    assertFalse(p.conflict(acd, 3));
  }

  @Test
  void moreThanNPathsIsNotASolution() {
    SelectionProblem p = problem(1, 0.5, 0.5, 5);
    assertEquals(0.0, p.fitness(new int[] {0, 2}, 2));
  }

  @Test
  void selectionsOrderSubflowsByDelay() {
    SelectionProblem p = problem(3, 0.5, 0.5, 5);
    Selection s = p.selectionOf("x", new int[] {1, 2, 0, 2});
    assertEquals(
        List.of(List.of("a", "b", "d"), List.of("a", "e", "f", "d"), List.of("a", "c", "d")),
        s.paths().stream().map(q -> q.switchNames(DIAMOND)).toList());
  }

  @Test
  void aClientNeedsAtLeastOneInterface() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> problem(0, 0.5, 0.5, 5));
    assertEquals("client c1: N (number of interfaces) must be at least 1, got 0", e.getMessage());
  }

  private static void assertArray(
      double[] expected, java.util.function.IntToDoubleFunction actual) {
    for (int i = 0; i < expected.length; i++) {
      assertEquals(expected[i], actual.applyAsDouble(i), 1e-12, "candidate " + i);
    }
  }
}
