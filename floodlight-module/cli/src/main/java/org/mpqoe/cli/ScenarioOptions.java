package org.mpqoe.cli;

import org.mpqoe.core.scenario.JoinSimulation;
import org.mpqoe.core.scenario.Scenario;
import org.mpqoe.core.scenario.ScenarioGenerator;
import org.mpqoe.core.select.GaConfig;
import org.mpqoe.core.select.SelectionConfig;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyLoader;
import picocli.CommandLine.Option;

/** Options shared by the commands that build a scenario and run selectors on it. */
final class ScenarioOptions {
  @Option(
      names = {"-t", "--topology"},
      required = true,
      paramLabel = "NAME|FILE",
      description = "Embedded topology name (see 'mpqoe topology list') or a descriptor file.")
  String topology;

  @Option(
      names = {"-c", "--clients"},
      defaultValue = "5",
      description = "Clients that join, one every 4 s (default: ${DEFAULT-VALUE}).")
  int clients;

  @Option(
      names = {"-n", "--interfaces"},
      defaultValue = "3",
      description =
          "Interfaces per generated client: N, the most subflows (default: ${DEFAULT-VALUE}).")
  int interfaces;

  @Option(
      names = {"-s", "--seed"},
      defaultValue = "1",
      description = "Seed of links, client placement and the GA (default: ${DEFAULT-VALUE}).")
  long seed;

  /** Help of {@code --links}, here and in {@code topology with-clients}. */
  static final String LINKS_HELP =
      "Link values: AUTO (paper's model if the topology has one), PAPER or DESCRIPTOR"
          + " (default: ${DEFAULT-VALUE}).";

  @Option(names = "--links", defaultValue = "AUTO", description = LINKS_HELP)
  ScenarioGenerator.LinkSource links;

  @Option(
      names = "--max-hops",
      defaultValue = "8",
      description = "Longest candidate path in links (default: ${DEFAULT-VALUE}).")
  int maxHops;

  @Option(
      names = "--demand",
      defaultValue = "2.6",
      description = "Mbit/s each client adds to its paths' load (default: ${DEFAULT-VALUE}).")
  double demand;

  @Option(
      names = "--alpha",
      defaultValue = "0.5",
      description = "Weight of zeta (default: ${DEFAULT-VALUE}).")
  double alpha;

  @Option(
      names = "--beta",
      defaultValue = "0.5",
      description = "Weight of xi (default: ${DEFAULT-VALUE}).")
  double beta;

  @Option(
      names = "--thr-delay",
      defaultValue = "300",
      description = "thr_delay in ms, eq. 4 (default: ${DEFAULT-VALUE}).")
  double thrDelay;

  @Option(
      names = "--thr-cong",
      defaultValue = "0.8",
      description = "thr_cong, eq. 3 (default: ${DEFAULT-VALUE}).")
  double thrCong;

  @Option(
      names = "--population",
      description = "GA population (default: the paper's for the topology, else 150).")
  Integer population;

  @Option(
      names = "--generations",
      defaultValue = "30",
      description = "GA generations (default: ${DEFAULT-VALUE}).")
  int generations;

  @Option(
      names = "--mutation",
      defaultValue = "0.25",
      description =
          "GA mutation probability: per offspring (ga), per gene (ga-tuned) (default: ${DEFAULT-VALUE}).")
  double mutation;

  @Option(
      names = "--crossover",
      defaultValue = "0.8",
      description =
          "ga-tuned two-point crossover probability; ga crosses every pair (default: ${DEFAULT-VALUE}).")
  double crossover;

  @Option(
      names = "--elites",
      defaultValue = "4",
      description = "GA elitist members n_e (default: ${DEFAULT-VALUE}).")
  int elites;

  @Option(
      names = "--tournament",
      defaultValue = "2",
      description = "GA tournament size (default: ${DEFAULT-VALUE}).")
  int tournament;

  @Option(
      names = "--pd-bw-reuse",
      defaultValue = "2.0",
      description = "pd-bw: Mbit/s a shared link must have free (default: ${DEFAULT-VALUE}).")
  double pdBwReuse;

  @Option(
      names = "--pd-delay-reuse",
      defaultValue = "40",
      description =
          "pd-delay: ms a shared link's latency must stay below (default: ${DEFAULT-VALUE}).")
  double pdDelayReuse;

  @Option(
      names = "--fd-delay-bound",
      defaultValue = "300",
      description = "fd-delay: upper bound on path delay, ms (default: ${DEFAULT-VALUE}).")
  double fdDelayBound;

  Topology loadTopology() {
    return TopologyLoader.load(topology);
  }

  Scenario scenario(Topology t, long scenarioSeed) {
    return ScenarioGenerator.generate(t, clients, interfaces, scenarioSeed, links);
  }

  SelectionConfig selectionConfig() {
    return new SelectionConfig(
        alpha, beta, thrDelay, thrCong, pdBwReuse, pdDelayReuse, fdDelayBound);
  }

  JoinSimulation.Settings settings() {
    return new JoinSimulation.Settings(selectionConfig(), maxHops, demand);
  }

  GaConfig gaConfig(Topology t) {
    int pop =
        population != null
            ? population
            : t.linkModel()
                .filter(m -> m.gaPopulation() > 0)
                .map(m -> m.gaPopulation())
                .orElse(GaConfig.DEFAULTS.population());
    return new GaConfig(
        pop,
        generations,
        mutation,
        crossover,
        elites,
        tournament,
        GaConfig.DEFAULTS.initialAttempts());
  }
}
