package org.mpqoe.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.mpqoe.core.control.SegmentRouting;
import org.mpqoe.core.path.LinkState;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.scenario.JoinSimulation;
import org.mpqoe.core.scenario.Scenario;
import org.mpqoe.core.select.Selectors;
import org.mpqoe.core.topology.Topology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code mpqoe select}: replay a scenario's joins with one algorithm and show every choice. */
@Command(
    name = "select",
    mixinStandardHelpOptions = true,
    description = "Choose paths for each joining client with one algorithm and print the choices.")
final class SelectCommand implements Callable<Integer> {
  @Mixin ScenarioOptions options;

  @Mixin QomraOptions qomra;

  @Option(
      names = {"-a", "--algorithm"},
      defaultValue = "ga",
      completionCandidates = AlgorithmNames.class,
      description = "One of: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
  String algorithm;

  @Option(
      names = "--format",
      defaultValue = "text",
      description = "text or json (default: ${DEFAULT-VALUE}).")
  String format;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (!format.equals("text") && !format.equals("json")) {
      throw new IllegalArgumentException("--format must be text or json, got '" + format + "'");
    }
    Topology topology = options.loadTopology();
    var selector =
        Selectors.create(
            algorithm, options.gaConfig(topology), qomra.config(), QomraOptions.context(topology));
    SegmentRouting sr = new SegmentRouting(topology);
    Scenario scenario = options.scenario(topology, options.seed);
    JoinSimulation.Result result = JoinSimulation.run(scenario, selector, options.settings());
    PrintWriter out = spec.commandLine().getOut();
    if (format.equals("json")) {
      out.println(
          new ObjectMapper()
              .enable(SerializationFeature.INDENT_OUTPUT)
              .writeValueAsString(json(result, sr)));
    } else {
      text(result, out, sr);
    }
    out.flush();
    return 0;
  }

  static void text(JoinSimulation.Result r, PrintWriter out, SegmentRouting sr) {
    Scenario s = r.scenario();
    Topology t = s.topology();
    out.printf(
        Locale.ROOT,
        "%s, %d clients joining every %.0f s, algorithm %s, seed %d%n",
        t,
        s.clients().size(),
        s.joinIntervalS(),
        r.algorithm(),
        s.seed());
    out.println(Report.linkLine(s));
    for (JoinSimulation.Join j : r.joins()) {
      LinkState state = j.state();
      var sel = j.selection();
      out.printf(
          Locale.ROOT,
          "%n%s at %s -> %s at %s: %d of %d candidates admissible; %d path(s), zeta %.1f ms,"
              + " xi %.2f Mbit/s, fitness %.4f%s, %.2f ms%n",
          j.client().host().name(),
          j.client().host().firstHop().name(),
          j.client().server().name(),
          j.client().server().firstHop().name(),
          j.admissible(),
          j.candidates(),
          sel.distinctPaths().size(),
          sel.score().zeta(),
          sel.score().xi(),
          sel.score().fitness(),
          sel.score().feasible() ? "" : " (infeasible)",
          j.nanos() / 1e6);
      List<Path> paths = sel.paths();
      for (int i = 0; i < paths.size(); i++) {
        Path p = paths.get(i);
        out.printf(
            Locale.ROOT,
            "  subflow %d: %-60s delay %6.1f ms  abw %6.2f Mbit/s%n",
            i + 1,
            p.describe(t),
            p.delayMs(state),
            Report.finite(p.availableMbps(state)));
        if (r.algorithm().equals("qomra")) {
          out.printf(Locale.ROOT, "             segment labels %s%n", sr.labels(p));
        }
      }
      if (paths.isEmpty()) {
        out.println("  no admissible path: the client gets no subflow rules");
      }
    }
  }

  static ObjectNode json(JoinSimulation.Result r, SegmentRouting sr) {
    ObjectMapper m = new ObjectMapper();
    Scenario s = r.scenario();
    Topology t = s.topology();
    ObjectNode root = m.createObjectNode();
    root.put("topology", t.name());
    root.put("algorithm", r.algorithm());
    root.put("seed", s.seed());
    root.put("clients", s.clients().size());
    root.put("joinIntervalS", s.joinIntervalS());
    ObjectNode links = root.putObject("linkBandwidthMbps");
    links.put("realisedMean", s.realised().mean());
    links.put("realisedStd", s.realised().std());
    if (s.target() != null) {
      links.put("paperMean", s.target().mean());
      links.put("paperStd", s.target().std());
    }
    ArrayNode joins = root.putArray("joins");
    for (JoinSimulation.Join j : r.joins()) {
      ObjectNode o = joins.addObject();
      o.put("client", j.client().host().name());
      o.put("switch", j.client().host().firstHop().name());
      o.put("server", j.client().server().name());
      o.put("joinTimeS", j.client().joinTimeS());
      o.put("candidates", j.candidates());
      o.put("admissible", j.admissible());
      ArrayNode paths = o.putArray("paths");
      for (Path p : j.selection().paths()) {
        ObjectNode po = paths.addObject();
        ArrayNode sw = po.putArray("switches");
        p.switchNames(t).forEach(sw::add);
        po.put("delayMs", p.delayMs(j.state()));
        po.put("availableMbps", Report.finite(p.availableMbps(j.state())));
        ArrayNode labels = po.putArray("labels");
        sr.labels(p).forEach(labels::add);
      }
      o.put("zetaMs", j.selection().score().zeta());
      o.put("xiMbps", j.selection().score().xi());
      o.put("fitness", j.selection().score().fitness());
      o.put("feasible", j.selection().score().feasible());
      o.put("timeMs", j.nanos() / 1e6);
    }
    return root;
  }
}
