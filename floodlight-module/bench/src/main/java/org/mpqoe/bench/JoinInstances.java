package org.mpqoe.bench;

import java.util.ArrayList;
import java.util.List;
import org.mpqoe.core.scenario.JoinSimulation;
import org.mpqoe.core.scenario.Scenario;
import org.mpqoe.core.scenario.ScenarioGenerator;
import org.mpqoe.core.select.GaConfig;
import org.mpqoe.core.select.GeneticSelector;
import org.mpqoe.core.select.SelectionProblem;
import org.mpqoe.core.topology.LinkModel;
import org.mpqoe.core.topology.Topology;

/**
 * Realistic per-join problem instances: the problems a GA-driven {@link JoinSimulation} hands its
 * selector, so that link loads and path users are those met by the 2nd..10th client of a seeded
 * scenario, not an empty network.
 *
 * <p>Scenario seed s = 1, 2, ... ; {@value #CLIENTS} clients with {@value #INTERFACES} interfaces
 * each, links from the paper's model ({@link ScenarioGenerator.LinkSource#AUTO}); joins in order.
 * Problems without an admissible candidate are skipped.
 */
public final class JoinInstances {
  /** Clients per scenario. */
  public static final int CLIENTS = 10;

  /** Interfaces per generated client (N of eq. 5). */
  public static final int INTERFACES = 3;

  /** The GA paper's generations per join. */
  public static final int GENERATIONS = 30;

  private JoinInstances() {}

  /**
   * The GA paper's population for {@code topology} (28 custom12, 150 compuserve, 300 jellyfish20).
   */
  public static int paperPopulation(Topology topology) {
    int pop = topology.linkModel().map(LinkModel::gaPopulation).orElse(0);
    return pop > 0 ? pop : GaConfig.DEFAULTS.population();
  }

  /** The paper's GA for {@code topology}: its population, 30 generations, our other defaults. */
  public static GaConfig paperGa(Topology topology) {
    return GaConfig.DEFAULTS.withPopulation(paperPopulation(topology)).withGenerations(GENERATIONS);
  }

  /** The seeded scenario the instances come from. */
  public static Scenario scenario(Topology topology, long seed) {
    return ScenarioGenerator.generate(
        topology, CLIENTS, INTERFACES, seed, ScenarioGenerator.LinkSource.AUTO);
  }

  /**
   * The first {@code count} non-empty join problems of scenarios 1, 2, ... on {@code topology}, in
   * join order, with the joins driven by the paper's Algorithm 1 (algorithm {@code ga}) with the
   * parameters {@code ga}.
   */
  public static List<SelectionProblem> build(Topology topology, GaConfig ga, int count) {
    if (count < 1) {
      throw new IllegalArgumentException("count must be at least 1");
    }
    GeneticSelector selector = new GeneticSelector(ga);
    List<SelectionProblem> out = new ArrayList<>(count);
    int emptyRuns = 0;
    for (long seed = 1; out.size() < count; seed++) {
      int before = out.size();
      var result =
          JoinSimulation.run(scenario(topology, seed), selector, JoinSimulation.Settings.DEFAULTS);
      for (JoinSimulation.Join join : result.joins()) {
        if (join.problem().size() > 0 && out.size() < count) {
          out.add(join.problem());
        }
      }
      // Guard against a topology whose joins never have an admissible candidate.
      emptyRuns = out.size() == before ? emptyRuns + 1 : 0;
      if (emptyRuns >= 100) {
        throw new IllegalStateException(
            topology.name() + ": 100 scenarios in a row without an admissible join problem");
      }
    }
    return out;
  }

  /** {@link #build(Topology, GaConfig, int)} with the paper's GA for the topology. */
  public static List<SelectionProblem> build(Topology topology, int count) {
    return build(topology, paperGa(topology), count);
  }

  /**
   * The problem met by client {@code clientIndex} (0-based) of scenario {@code seed} when the
   * clients before it joined with {@code ga}. Only the clients up to {@code clientIndex} are
   * simulated; the link draws still follow the {@value #CLIENTS}-client scenario and the join seed
   * is the one of the full run, so the problem is the same as in a full run.
   */
  public static SelectionProblem joinProblem(
      Topology topology, GaConfig ga, long seed, int clientIndex) {
    Scenario full = scenario(topology, seed);
    if (clientIndex < 0 || clientIndex >= full.clients().size()) {
      throw new IllegalArgumentException("client index " + clientIndex + " out of range");
    }
    Scenario prefix =
        new Scenario(
            full.topology(),
            full.seed(),
            full.links(),
            full.clients().subList(0, clientIndex + 1),
            full.joinIntervalS(),
            full.target(),
            full.realised());
    var result =
        JoinSimulation.run(prefix, new GeneticSelector(ga), JoinSimulation.Settings.DEFAULTS);
    return result.joins().get(clientIndex).problem();
  }
}
