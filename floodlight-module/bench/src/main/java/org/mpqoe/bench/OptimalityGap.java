package org.mpqoe.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.mpqoe.core.select.ExactSelector;
import org.mpqoe.core.select.GaConfig;
import org.mpqoe.core.select.GeneticSelector;
import org.mpqoe.core.select.SelectionProblem;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyException;
import org.mpqoe.core.topology.TopologyLoader;

/**
 * How close each GA variant ({@code ga}, the paper's Algorithm 1, and {@code ga-tuned}; paper
 * population, 30 generations) comes to the exact optimum of the per-join problem. Instance i
 * (1..instances) of a topology is the join problem of client (i-1) mod 10 of scenario seed i (10
 * clients, 3 interfaces each, paper link model), the clients before it having joined with {@code
 * ga}; the GA's own seed is that join's seed, so every row is reproducible. Both variants solve the
 * same instances.
 *
 * <p>Prints CSV, one row per instance and variant: the GA's and the exact solver's fitness (eq. 7,
 * 10 decimals) and the admissible candidates. floodlight-module/bench/perf_report.py turns it into
 * docs/perf.md's tables. With {@code --tuned C,E,T} only {@code ga-tuned} runs, with crossover
 * probability C, E elites and tournament size T (the tuning of its parameters); the instances stay
 * the same.
 *
 * <p>Usage: {@code java -cp benchmarks.jar org.mpqoe.bench.OptimalityGap [--tuned C,E,T]
 * [instances] [topology...]}
 */
public final class OptimalityGap {
  static final String USAGE =
      "OptimalityGap [--tuned CROSSOVER,ELITES,TOURNAMENT] [instances] [topology...]";
  static final String HEADER =
      "topology,algorithm,population,crossover,elites,tournament,instance,candidates,"
          + "ga_fitness,exact_fitness";

  private OptimalityGap() {}

  /** One instance's result for one variant. */
  record Row(
      String topology,
      GeneticSelector.Variant variant,
      GaConfig config,
      int instance,
      int candidates,
      double gaFitness,
      double exactFitness) {
    String csv() {
      return String.format(
          Locale.ROOT,
          "%s,%s,%d,%s,%d,%d,%d,%d,%.10f,%.10f",
          topology,
          variant.algorithm(),
          config.population(),
          Double.toString(config.crossoverProbability()),
          config.elites(),
          config.tournamentSize(),
          instance,
          candidates,
          gaFitness,
          exactFitness);
    }
  }

  public static void main(String[] args) {
    List<String> rest = new ArrayList<>(List.of(args));
    double[] tuned = null;
    int instances = 100;
    List<String> topologies = BenchArgs.TOPOLOGIES;
    try {
      if (!rest.isEmpty() && rest.get(0).equals("--tuned")) {
        if (rest.size() < 2) {
          throw new IllegalArgumentException("--tuned needs CROSSOVER,ELITES,TOURNAMENT");
        }
        tuned = tuning(rest.get(1));
        rest = rest.subList(2, rest.size());
      }
      if (!rest.isEmpty()) {
        instances = BenchArgs.positive(rest.get(0), "instances");
      }
      if (rest.size() > 1) {
        topologies = rest.subList(1, rest.size());
      }
      List<Topology> loaded = new ArrayList<>();
      for (String name : topologies) {
        loaded.add(TopologyLoader.load(name));
      }
      long start = System.nanoTime();
      System.out.println(HEADER);
      for (Topology t : loaded) {
        for (Row r : run(t, instances, tuned)) {
          System.out.println(r.csv());
        }
      }
      System.err.printf(
          Locale.ROOT, "OptimalityGap: took %.1f s%n", (System.nanoTime() - start) / 1e9);
    } catch (IllegalArgumentException | TopologyException e) {
      BenchArgs.fail(USAGE, e);
    }
  }

  /** {crossover, elites, tournament} of {@code --tuned}'s value. */
  static double[] tuning(String text) {
    String[] p = text.split(",", -1);
    if (p.length != 3) {
      throw new IllegalArgumentException(
          "--tuned takes CROSSOVER,ELITES,TOURNAMENT (e.g. 0.8,4,2), not '" + text + "'");
    }
    double crossover;
    try {
      crossover = Double.parseDouble(p[0].strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--tuned: crossover must be a number, not " + p[0], e);
    }
    return new double[] {
      crossover,
      BenchArgs.atLeast(p[1].strip(), "--tuned: elites", 0),
      BenchArgs.atLeast(p[2].strip(), "--tuned: tournament size", 2)
    };
  }

  /**
   * Every instance's result, for both variants, or for {@code ga-tuned} alone with the parameters
   * {@code tuned} ({crossover, elites, tournament}) when that is not null.
   */
  static List<Row> run(Topology topology, int instances, double[] tuned) {
    GaConfig paper = JoinInstances.paperGa(topology);
    List<GeneticSelector.Variant> variants =
        tuned == null
            ? List.of(GeneticSelector.Variant.values())
            : List.of(GeneticSelector.Variant.TUNED);
    GaConfig config =
        tuned == null
            ? paper
            : new GaConfig(
                paper.population(),
                paper.generations(),
                paper.mutationProbability(),
                tuned[0],
                (int) tuned[1],
                (int) tuned[2],
                paper.initialAttempts());
    ExactSelector exact = new ExactSelector();
    List<Row> rows = new ArrayList<>();
    for (int i = 1; i <= instances; i++) {
      // the instances come from joins made with the paper's GA whatever is being tuned
      SelectionProblem problem =
          JoinInstances.joinProblem(topology, paper, i, (i - 1) % JoinInstances.CLIENTS);
      double e = exact.select(problem).score().fitness();
      for (GeneticSelector.Variant v : variants) {
        double g = new GeneticSelector(config, v).select(problem).score().fitness();
        rows.add(new Row(topology.name(), v, config, i, problem.size(), g, e));
      }
    }
    return rows;
  }
}
