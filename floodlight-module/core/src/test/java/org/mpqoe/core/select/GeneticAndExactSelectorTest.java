package org.mpqoe.core.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.scenario.JoinSimulation;
import org.mpqoe.core.scenario.Scenario;
import org.mpqoe.core.scenario.ScenarioGenerator;
import org.mpqoe.core.topology.TopologyLoader;

/** Known optima of the hand-worked instance of {@link SelectionProblemTest}. */
class GeneticAndExactSelectorTest {
  private static final GaConfig SMALL = GaConfig.DEFAULTS.withPopulation(28);
  private static final List<PathSelector> SELECTORS =
      List.of(
          new ExactSelector(),
          new GeneticSelector(SMALL),
          new GeneticSelector(SMALL, GeneticSelector.Variant.TUNED));

  private static List<List<String>> names(Selection s) {
    return s.paths().stream().map(p -> p.switchNames(SelectionProblemTest.DIAMOND)).toList();
  }

  @Test
  void equalWeightsPreferTheSingleFastestPath() {
    // {abd}: 0.5 + 0.5 * 4/6.5 = 0.8077 beats {abd, aefd} 0.7115 and {abd, acd} 0.5.
    SelectionProblem p = SelectionProblemTest.problem(2, 0.5, 0.5, 5);
    for (PathSelector s : SELECTORS) {
      Selection sel = s.select(p);
      assertEquals(List.of(List.of("a", "b", "d")), names(sel), s.name());
      assertEquals(0.5 + 0.5 * 4 / 6.5, sel.score().fitness(), 1e-9, s.name());
    }
  }

  @Test
  void bandwidthHeavyWeightsTakeEveryPath() {
    // alpha 0.1, beta 0.9, N 3: all three give 0.1 * (1 - 4/6) + 0.9 = 0.9333.
    SelectionProblem p = SelectionProblemTest.problem(3, 0.1, 0.9, 5);
    for (PathSelector s : SELECTORS) {
      Selection sel = s.select(p);
      assertEquals(
          List.of(List.of("a", "b", "d"), List.of("a", "e", "f", "d"), List.of("a", "c", "d")),
          names(sel),
          s.name());
      assertEquals(0.1 * (1 - 4.0 / 6) + 0.9, sel.score().fitness(), 1e-9, s.name());
    }
  }

  @Test
  void neverPairsPathsOverACongestedSharedLink() {
    // thr_delay 10 admits abcd, which shares congested a-b with abd.
    SelectionProblem p = SelectionProblemTest.problem(3, 0.0001, 0.9999, 10);
    for (PathSelector s : SELECTORS) {
      Selection sel = s.select(p);
      assertTrue(sel.score().feasible(), s.name());
      List<Path> paths = sel.paths();
      for (int i = 0; i < paths.size(); i++) {
        for (int j = i + 1; j < paths.size(); j++) {
          assertTrue(
              !paths.get(i).sharesCongestedLink(paths.get(j), p.state(), 0.5),
              s.name() + " " + names(sel));
        }
      }
      assertEquals(3, paths.size(), s.name());
    }
  }

  /**
   * Found by the constraints property: almost every pair of the 25 candidates shares a link above
   * thr_cong, so a random initial population was all infeasible and the GA returned fitness 0.
   * Algorithm 2's filter (draw again, then repair) must leave a feasible start.
   */
  @Test
  void congestionAlmostEverywhereStillGivesAFeasibleSelection() {
    SelectionProblem p = GeneticVersusExactPropertiesTest.instance(2681, 4);
    Selection ga = new GeneticSelector(GaConfig.DEFAULTS.withPopulation(60)).select(p);
    assertTrue(ga.score().feasible());
    assertEquals(new ExactSelector().select(p).score().fitness(), ga.score().fitness(), 1e-9);
  }

  @Test
  void repairDropsConflictingSubflows() {
    // abd (gene 1) and abcd (gene 3) share a-b, congested at 0.6 > 0.5; acd (gene 2) is free.
    SelectionProblem p = SelectionProblemTest.problem(3, 0.5, 0.5, 10);
    var g =
        io.jenetics.Genotype.of(
            io.jenetics.IntegerChromosome.of(
                io.jenetics.IntegerGene.of(1, 0, 6),
                io.jenetics.IntegerGene.of(3, 0, 6),
                io.jenetics.IntegerGene.of(2, 0, 6)));
    var fixed = GeneticSelector.repaired(p, g);
    assertEquals(List.of(1, 0, 2), fixed.chromosome().stream().map(x -> x.allele()).toList());
  }

  @Test
  void gaIsReproducibleFromItsSeed() {
    Scenario sc =
        ScenarioGenerator.generate(
            TopologyLoader.load("jellyfish20"), 5, 3, 11, ScenarioGenerator.LinkSource.AUTO);
    for (GeneticSelector.Variant v : GeneticSelector.Variant.values()) {
      GeneticSelector ga = new GeneticSelector(GaConfig.DEFAULTS.withPopulation(60), v);
      var first = JoinSimulation.run(sc, ga, JoinSimulation.Settings.DEFAULTS);
      var second = JoinSimulation.run(sc, ga, JoinSimulation.Settings.DEFAULTS);
      for (int i = 0; i < first.joins().size(); i++) {
        assertEquals(first.joins().get(i).selection(), second.joins().get(i).selection(), v.name());
      }
    }
  }

  @Test
  void noAdmissiblePathMeansNoSelection() {
    SelectionProblem p = SelectionProblemTest.problem(2, 0.5, 0.5, 1);
    assertEquals(0, p.size());
    assertTrue(new GeneticSelector(SMALL).select(p).isEmpty());
    assertTrue(new ExactSelector().select(p).isEmpty());
  }
}
