package org.mpqoe.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.mpqoe.core.scenario.JoinSimulation;
import org.mpqoe.core.scenario.Scenario;
import org.mpqoe.core.select.Selectors;
import org.mpqoe.core.topology.Topology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mpqoe compare}: every algorithm on the same seeded scenarios, one row each, all scored
 * with the GA paper's objective.
 */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    description = "Run several algorithms on the same seeded scenarios and print a table.")
final class CompareCommand implements Callable<Integer> {
  @Mixin ScenarioOptions options;

  @Option(
      names = "--algorithms",
      split = ",",
      description = "Algorithms to compare (default: all).")
  List<String> algorithms;

  @Option(
      names = "--runs",
      defaultValue = "5",
      description =
          "Scenarios (seeds seed..seed+runs-1) per algorithm (default: ${DEFAULT-VALUE}).")
  int runs;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    if (runs < 1) {
      throw new IllegalArgumentException("--runs must be at least 1");
    }
    Topology topology = options.loadTopology();
    List<String> names = algorithms == null ? Selectors.NAMES : algorithms;
    names.forEach(n -> Selectors.create(n, options.gaConfig(topology)));
    List<Scenario> scenarios = new ArrayList<>();
    for (int r = 0; r < runs; r++) {
      scenarios.add(options.scenario(topology, options.seed + r));
    }
    PrintWriter out = spec.commandLine().getOut();
    out.printf(
        Locale.ROOT,
        "%s, %d clients x %d runs (seeds %d..%d), GA population %d%n",
        topology,
        options.clients,
        runs,
        options.seed,
        options.seed + runs - 1,
        options.gaConfig(topology).population());
    out.println(Report.linkLine(scenarios.get(0)) + " [first run]");
    out.println();
    out.printf(
        Locale.ROOT,
        "%-9s %7s %10s %11s %9s %11s %9s %10s%n",
        "algorithm",
        "paths",
        "zeta(ms)",
        "xi(Mbit/s)",
        "fitness",
        "infeasible",
        "no path",
        "median ms");
    for (String name : names) {
      Row row = new Row();
      for (Scenario s : scenarios) {
        var selector = Selectors.create(name, options.gaConfig(topology));
        row.add(JoinSimulation.run(s, selector, options.settings()));
      }
      out.printf(
          Locale.ROOT,
          "%-9s %7.2f %10.1f %11.2f %9.4f %11d %9d %10.3f%n",
          name,
          row.paths / row.joins,
          row.zeta / row.joins,
          row.xi / row.joins,
          row.fitness / row.joins,
          row.infeasible,
          row.empty,
          row.medianMs());
    }
    out.println();
    out.println(
        "Per join: paths = distinct paths, zeta = sum of pairwise delay differences (eq. 8),"
            + " xi = sum of abw/(users+1) (eq. 9), fitness = eq. 7 normalised (higher is better),"
            + " infeasible = joins that share a link above thr_cong.");
    out.flush();
    return 0;
  }

  /** Sums over every join of every run. */
  private static final class Row {
    double joins;
    double paths;
    double zeta;
    double xi;
    double fitness;
    int infeasible;
    int empty;
    final List<Long> nanos = new ArrayList<>();

    void add(JoinSimulation.Result r) {
      for (JoinSimulation.Join j : r.joins()) {
        joins++;
        paths += j.selection().distinctPaths().size();
        zeta += j.selection().score().zeta();
        xi += j.selection().score().xi();
        fitness += j.selection().score().fitness();
        infeasible += j.selection().score().feasible() ? 0 : 1;
        empty += j.selection().isEmpty() ? 1 : 0;
        nanos.add(j.nanos());
      }
    }

    double medianMs() {
      long[] sorted = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
      return sorted.length == 0 ? 0 : sorted[sorted.length / 2] / 1e6;
    }
  }
}
