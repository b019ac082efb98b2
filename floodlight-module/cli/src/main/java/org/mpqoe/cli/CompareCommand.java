package org.mpqoe.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.mpqoe.core.control.ControlConfig;
import org.mpqoe.core.control.FlowMatch;
import org.mpqoe.core.control.SegmentRouting;
import org.mpqoe.core.control.SubflowRules;
import org.mpqoe.core.packet.Addresses;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.scenario.JoinSimulation;
import org.mpqoe.core.scenario.Scenario;
import org.mpqoe.core.select.QomraConfig;
import org.mpqoe.core.select.Selectors;
import org.mpqoe.core.topology.Host;
import org.mpqoe.core.topology.HostInterface;
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

  @Mixin QomraOptions qomra;

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

  @Option(
      names = "--format",
      defaultValue = "text",
      description =
          "text (tables of means) or csv (one row per algorithm and run: sums over the run's"
              + " joins, no timing, so the same seeds give the same bytes) (default:"
              + " ${DEFAULT-VALUE}).")
  String format;

  /** The CSV columns of {@code --format csv}. */
  static final String CSV_HEADER =
      "algorithm,seed,joins,paths,zeta_ms,xi_mbps,fitness,infeasible,no_path,subflows,abw_mbps,"
          + "spread_ms,rules_hop,rules_sr,overbooked_links";

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    if (runs < 1) {
      throw new IllegalArgumentException("--runs must be at least 1");
    }
    if (!format.equals("text") && !format.equals("csv")) {
      throw new IllegalArgumentException("--format must be text or csv, got '" + format + "'");
    }
    Topology topology = options.loadTopology();
    List<String> names = algorithms == null ? Selectors.NAMES : algorithms;
    QomraConfig qomraConfig = qomra.config();
    names.forEach(n -> Selectors.create(n, options.gaConfig(topology), qomraConfig, null));
    List<Scenario> scenarios = new ArrayList<>();
    for (int r = 0; r < runs; r++) {
      scenarios.add(options.scenario(topology, options.seed + r));
    }
    PrintWriter out = spec.commandLine().getOut();
    if (format.equals("csv")) {
      csv(out, topology, names, qomraConfig, scenarios);
      return 0;
    }
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
    List<Admission> admissions = new ArrayList<>();
    for (String name : names) {
      Row row = new Row();
      Admission adm = new Admission(name, topology, qomraConfig.requiredMbps());
      for (Scenario s : scenarios) {
        var selector =
            Selectors.create(
                name, options.gaConfig(topology), qomraConfig, QomraOptions.context(topology));
        JoinSimulation.Result result = JoinSimulation.run(s, selector, options.settings());
        row.add(result);
        adm.add(result);
      }
      admissions.add(adm);
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
    out.println();
    out.printf(
        Locale.ROOT,
        "Admission view: every subflow of every algorithm needs b_r = %s Mbit/s (%s)%n",
        qomraConfig.requiredMbps(),
        qomraConfig.resolution().label());
    out.printf(
        Locale.ROOT,
        "%-9s %9s %12s %11s %10s %9s %11s%n",
        "algorithm",
        "subflows",
        "abw(Mbit/s)",
        "spread(ms)",
        "rules/hop",
        "rules/SR",
        "overbooked");
    for (Admission a : admissions) {
      out.printf(
          Locale.ROOT,
          "%-9s %9.2f %12.2f %11.3f %10.1f %9.1f %11.2f%n",
          a.name,
          a.subflows / a.joins,
          a.abw / a.joins,
          a.spread / a.joins,
          a.perHop / a.joins,
          a.segment / a.joins,
          a.overbooked / a.runs);
    }
    out.println();
    out.println(
        "Per client: subflows that get rules, abw = sum of abw_p over its distinct paths at its"
            + " join (aggregate available bandwidth), spread = max - min path delay, rules/hop and"
            + " rules/SR = flow rules its subflows cost per hop and with segment routing (shared"
            + " label rules: "
            + labelRules(topology)
            + " on all switches). Per run: overbooked = links where the subflows' b_r sum exceeds"
            + " capacity.");
    out.flush();
    return 0;
  }

  /** One row per algorithm and run (seed): the sums of {@link Row} and {@link Admission}. */
  private void csv(
      PrintWriter out,
      Topology topology,
      List<String> names,
      QomraConfig qomraConfig,
      List<Scenario> scenarios) {
    out.println(CSV_HEADER);
    for (String name : names) {
      for (Scenario s : scenarios) {
        var selector =
            Selectors.create(
                name, options.gaConfig(topology), qomraConfig, QomraOptions.context(topology));
        JoinSimulation.Result result = JoinSimulation.run(s, selector, options.settings());
        Row row = new Row();
        Admission adm = new Admission(name, topology, qomraConfig.requiredMbps());
        row.add(result);
        adm.add(result);
        out.printf(
            Locale.ROOT,
            "%s,%d,%d,%d,%.6f,%.6f,%.6f,%d,%d,%d,%.6f,%.6f,%d,%d,%d%n",
            name,
            s.seed(),
            (int) row.joins,
            (int) row.paths,
            row.zeta,
            row.xi,
            row.fitness,
            row.infeasible,
            row.empty,
            (int) adm.subflows,
            adm.abw,
            adm.spread,
            (int) adm.perHop,
            (int) adm.segment,
            (int) adm.overbooked);
      }
    }
    out.flush();
  }

  /** Proactive segment-routing label rules of all switches (shared by every client). */
  private static int labelRules(Topology t) {
    SegmentRouting sr = new SegmentRouting(t);
    return t.switches().stream().mapToInt(s -> sr.labelRules(s, 1).size()).sum();
  }

  /** QoMRA's view of a run: subflows booked at b_r, path quality, rules per client. */
  private static final class Admission {
    final String name;
    final Topology topology;
    final double rateMbps;
    final SubflowRules rules;
    double joins;
    double runs;
    double subflows;
    double abw;
    double spread;
    double perHop;
    double segment;
    double overbooked;

    Admission(String name, Topology topology, double rateMbps) {
      this.name = name;
      this.topology = topology;
      this.rateMbps = rateMbps;
      this.rules = new SubflowRules(topology, new SegmentRouting(topology));
    }

    void add(JoinSimulation.Result r) {
      runs++;
      double[] booked = new double[topology.links().size()];
      ControlConfig perHopConfig = ControlConfig.defaults();
      ControlConfig srConfig = perHopConfig.withRouting(perHopConfig.maxHops(), true);
      for (JoinSimulation.Join j : r.joins()) {
        joins++;
        List<Path> paths = j.selection().paths();
        subflows += paths.size();
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (Path p : j.selection().distinctPaths()) {
          abw += Report.finite(p.availableMbps(j.state()));
          min = Math.min(min, p.delayMs(j.state()));
          max = Math.max(max, p.delayMs(j.state()));
        }
        spread += paths.isEmpty() ? 0 : max - min;
        Host client = j.client().host();
        HostInterface server = j.client().server().interfaces().get(0);
        for (int i = 0; i < paths.size(); i++) {
          Path p = paths.get(i);
          HostInterface from = client.interfaces().get(Math.min(i, client.interfaces().size() - 1));
          FlowMatch.Subflow m =
              new FlowMatch.Subflow(
                  Addresses.parseIpv4(from.ip()), Addresses.parseIpv4(server.ip()), 1000 + i, 80);
          perHop += rules.build(m, from, server, p, perHopConfig, 0, false).size();
          segment += rules.build(m, from, server, p, srConfig, 0, false).size();
          for (int l : p.links()) {
            booked[l] += rateMbps;
          }
        }
      }
      for (int l = 0; l < booked.length; l++) {
        if (booked[l] > r.scenario().links().capacityMbps(l) + 1e-9) {
          overbooked++;
        }
      }
    }
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
