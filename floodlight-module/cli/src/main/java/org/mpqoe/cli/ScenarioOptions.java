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

  @Option(names = "--alpha", description = "Weight of zeta (default: ${DEFAULT-VALUE}).")
  double alpha = SelectionConfig.DEFAULTS.alpha();

  @Option(names = "--beta", description = "Weight of xi (default: ${DEFAULT-VALUE}).")
  double beta = SelectionConfig.DEFAULTS.beta();

  @Option(
      names = "--thr-delay",
      description = "thr_delay in ms, eq. 4 (default: ${DEFAULT-VALUE}).")
  double thrDelay = SelectionConfig.DEFAULTS.thrDelayMs();

  @Option(names = "--thr-cong", description = "thr_cong, eq. 3 (default: ${DEFAULT-VALUE}).")
  double thrCong = SelectionConfig.DEFAULTS.thrCong();

  @Option(
      names = "--population",
      description = "GA population (default: the paper's for the topology, else 150).")
  Integer population;

  @Option(names = "--generations", description = "GA generations (default: ${DEFAULT-VALUE}).")
  int generations = GaConfig.DEFAULTS.generations();

  @Option(
      names = "--mutation",
      description =
          "GA mutation probability: per offspring (ga), per gene (ga-tuned) (default: ${DEFAULT-VALUE}).")
  double mutation = GaConfig.DEFAULTS.mutationProbability();

  @Option(
      names = "--crossover",
      description =
          "ga-tuned two-point crossover probability; ga crosses every pair (default: ${DEFAULT-VALUE}).")
  double crossover = GaConfig.DEFAULTS.crossoverProbability();

  @Option(names = "--elites", description = "GA elitist members n_e (default: ${DEFAULT-VALUE}).")
  int elites = GaConfig.DEFAULTS.elites();

  @Option(names = "--tournament", description = "GA tournament size (default: ${DEFAULT-VALUE}).")
  int tournament = GaConfig.DEFAULTS.tournamentSize();

  @Option(
      names = "--pd-bw-reuse",
      description = "pd-bw: Mbit/s a shared link must have free (default: ${DEFAULT-VALUE}).")
  double pdBwReuse = SelectionConfig.DEFAULTS.pdBwReuseMbps();

  @Option(
      names = "--pd-delay-reuse",
      description =
          "pd-delay: ms a shared link's latency must stay below (default: ${DEFAULT-VALUE}).")
  double pdDelayReuse = SelectionConfig.DEFAULTS.pdDelayReuseMs();

  @Option(
      names = "--fd-delay-bound",
      description = "fd-delay: upper bound on path delay, ms (default: ${DEFAULT-VALUE}).")
  double fdDelayBound = SelectionConfig.DEFAULTS.fdDelayBoundMs();

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
