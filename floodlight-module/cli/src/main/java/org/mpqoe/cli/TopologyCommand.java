package org.mpqoe.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.mpqoe.core.control.ControlConfig;
import org.mpqoe.core.path.CandidatePaths;
import org.mpqoe.core.path.Routes;
import org.mpqoe.core.scenario.ScenarioGenerator;
import org.mpqoe.core.topology.Attachment;
import org.mpqoe.core.topology.Descriptor;
import org.mpqoe.core.topology.FrameworkWiring;
import org.mpqoe.core.topology.Host;
import org.mpqoe.core.topology.HostInterface;
import org.mpqoe.core.topology.JellyfishGenerator;
import org.mpqoe.core.topology.Link;
import org.mpqoe.core.topology.SwitchGraphMatch;
import org.mpqoe.core.topology.SwitchNode;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyLoader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code mpqoe topology}: list, show, validate and generate descriptors, and their forwarding
 * tables.
 */
@Command(
    name = "topology",
    mixinStandardHelpOptions = true,
    description =
        "List, show, validate and generate topology descriptors; print their forwarding tables.",
    subcommands = {
      TopologyCommand.ListTopologies.class,
      TopologyCommand.Show.class,
      TopologyCommand.Validate.class,
      TopologyCommand.Jellyfish.class,
      TopologyCommand.WithClients.class,
      TopologyCommand.Routing.class,
      TopologyCommand.Match.class,
      TopologyCommand.Wiring.class
    })
final class TopologyCommand implements Runnable {
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(
        spec.commandLine(),
        "topology needs a subcommand: list, show, validate, jellyfish, with-clients, routes, match,"
            + " wiring");
  }

  @Command(name = "list", description = "Names of the embedded descriptors.")
  static final class ListTopologies implements Callable<Integer> {
    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      for (String name : TopologyLoader.embeddedNames()) {
        Topology t = TopologyLoader.load(name);
        out.printf(
            Locale.ROOT,
            "%-15s %3d switches %3d links %3d hosts%s%n",
            name,
            t.switches().size(),
            t.links().size(),
            t.hosts().size(),
            t.approximation() ? "  (approximation)" : "");
      }
      out.flush();
      return 0;
    }
  }

  @Command(name = "show", description = "Switches, ports, links and hosts of a topology.")
  static final class Show implements Callable<Integer> {
    @Parameters(paramLabel = "NAME|FILE")
    String topology;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      Topology t = TopologyLoader.load(topology);
      PrintWriter out = spec.commandLine().getOut();
      out.println(t);
      out.println(t.description());
      out.println();
      for (Link l : t.links()) {
        out.printf(
            Locale.ROOT,
            "link %-3d %s:%d - %s:%d  %.1f Mbit/s  %.3f ms  %.1f %% loss%n",
            l.index(),
            l.a().name(),
            l.portA(),
            l.b().name(),
            l.portB(),
            l.capacityMbps(),
            l.delayMs(),
            l.lossPct());
      }
      for (Host h : t.hosts()) {
        for (HostInterface f : h.interfaces()) {
          out.printf(
              Locale.ROOT,
              "%-6s %-8s %-15s %s on %s:%d%n",
              h.role().name().toLowerCase(Locale.ROOT),
              h.name(),
              f.ip(),
              f.mac(),
              f.attachment().name(),
              f.port());
        }
      }
      out.flush();
      return 0;
    }
  }

  @Command(name = "validate", description = "Check a descriptor file; print what is wrong.")
  static final class Validate implements Callable<Integer> {
    @Parameters(paramLabel = "FILE")
    Path file;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      Topology t = TopologyLoader.load(file);
      spec.commandLine().getOut().println(file + ": valid, " + t);
      return 0;
    }
  }

  @Command(
      name = "jellyfish",
      description =
          "Generate the GA paper's Jellyfish descriptor (random regular graph) from a seed.")
  static final class Jellyfish implements Callable<Integer> {
    @Option(
        names = "--seed",
        defaultValue = "1",
        description = "Generator seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
        names = "--switches",
        defaultValue = "20",
        description = "Switches (default: ${DEFAULT-VALUE}).")
    int switches;

    @Option(
        names = "--degree",
        defaultValue = "4",
        description = "Degree (default: ${DEFAULT-VALUE}).")
    int degree;

    @Option(
        names = "--name",
        defaultValue = "jellyfish20",
        description = "Descriptor name (default: ${DEFAULT-VALUE}).")
    String name;

    @Option(
        names = {"-o", "--out"},
        description = "Write here (atomically) instead of stdout.")
    Path out;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      Descriptor d =
          JellyfishGenerator.descriptor(
              name, seed, switches, degree, JellyfishGenerator.paperScenario());
      String text = TopologyLoader.write(d);
      TopologyLoader.parse(text, "generated " + name);
      writeOut(text, out, spec);
      return 0;
    }
  }

  @Command(
      name = "with-clients",
      description = {
        "Write a descriptor with a scenario's generated clients as hosts (for Mininet and the"
            + " controller).",
        "With drawn links (--links PAPER, or AUTO on a topology with a link model) each link's"
            + " capacityMbps and delayMs are the scenario's draws for this seed and number of"
            + " clients, the values 'mpqoe select' uses; \"draw\" in the file records how it was"
            + " made."
      })
  static final class WithClients implements Callable<Integer> {
    @Parameters(paramLabel = "NAME|FILE")
    String topology;

    @Option(
        names = {"-c", "--clients"},
        defaultValue = "2",
        description = "Clients (default: ${DEFAULT-VALUE}).")
    int clients;

    @Option(
        names = {"-n", "--interfaces"},
        defaultValue = "3",
        description = "Interfaces each (default: ${DEFAULT-VALUE}).")
    int interfaces;

    @Option(
        names = {"-s", "--seed"},
        defaultValue = "1",
        description = "Seed of links and client placement (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
        names = "--links",
        defaultValue = "DESCRIPTOR",
        description = ScenarioOptions.LINKS_HELP)
    ScenarioGenerator.LinkSource links;

    @Option(
        names = "--bandwidth-mean",
        paramLabel = "MBPS",
        description =
            "Draw link bandwidths with this mean instead of the paper's for the number of clients"
                + " (drawn links only).")
    Double bandwidthMean;

    @Option(
        names = "--bandwidth-std",
        paramLabel = "MBPS",
        description =
            "Draw link bandwidths with this standard deviation instead of the paper's (drawn"
                + " links only; 0: every link gets the mean).")
    Double bandwidthStd;

    @Option(
        names = "--access-capacity",
        paramLabel = "MBPS",
        description = "capacityMbps of every generated client interface (default: none, unshaped).")
    Double accessCapacity;

    @Option(
        names = "--interface-switches",
        paramLabel = "GROUPS",
        description =
            "Attach interface k of each generated client to a switch drawn from the k-th group:"
                + " one group per interface, groups separated by ';', switch names in a group by"
                + " ','; e.g. 's1;s2;s3' puts every client's three interfaces on s1, s2 and s3"
                + " (default: all of a client's interfaces on one drawn client switch).")
    String interfaceSwitches;

    @Option(
        names = "--server-switches",
        paramLabel = "SWITCHES",
        description =
            "Attach interface k of the topology's one server to the k-th switch, names separated"
                + " by ';' (its addresses stay, one per interface); e.g. 'Houston;Washington"
                + " DC;Boston' (default: where the descriptor puts them).")
    String serverSwitches;

    @Option(
        names = "--attach",
        paramLabel = "NAME",
        description =
            "Attach client and server interfaces as the topology's named attachment says"
                + " (topologies/attachments/; 'framework': the GA paper's authors' wiring);"
                + " excludes --interface-switches and --server-switches.")
    String attach;

    @Option(
        names = {"-o", "--out"},
        description = "Write here (atomically) instead of stdout.")
    Path out;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      var linkSpec =
          new ScenarioGenerator.LinkSpec(links, bandwidthMean, bandwidthStd, accessCapacity);
      Topology t = TopologyLoader.load(topology);
      ScenarioGenerator.Placement where;
      if (attach != null) {
        if (interfaceSwitches != null || serverSwitches != null) {
          throw new picocli.CommandLine.ParameterException(
              spec.commandLine(), "--attach excludes --interface-switches and --server-switches");
        }
        where = ScenarioGenerator.Placement.of(Attachment.named(t, attach));
      } else {
        where = ScenarioGenerator.Placement.parse(interfaceSwitches, serverSwitches);
      }
      Descriptor d = ScenarioGenerator.withClients(t, clients, interfaces, seed, linkSpec, where);
      String text = TopologyLoader.write(d);
      TopologyLoader.parse(text, "generated " + d.name());
      writeOut(text, out, spec);
      return 0;
    }
  }

  @Command(
      name = "routes",
      description = {
        "Print the forwarding tables of a topology as JSON: for every switch and every other"
            + " switch it reaches, the port (and link, next switch, path length) of the first hop"
            + " of the path the controller forwards plain traffic on: the fewest links, ties"
            + " broken by the lower link index (the lower port).",
        "The scheduler experiments install these as static rules; their committed copies in"
            + " topologies/routes/ are checked by `make topology-check`."
      })
  static final class Routing implements Callable<Integer> {
    /** Format of the document (cellrun.py checks it): a new one when its fields change. */
    static final String SCHEMA = "mpqoe-routes/1";

    @Parameters(paramLabel = "NAME|FILE")
    String topology;

    @Option(
        names = "--max-hops",
        description = "Longest path, in links (default: the controller's, ${DEFAULT-VALUE}).")
    int maxHops = ControlConfig.defaults().maxHops();

    @Option(
        names = {"-o", "--out"},
        description = "Write here (atomically) instead of stdout.")
    Path out;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    private static final ObjectMapper MAPPER =
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Override
    public Integer call() throws IOException {
      if (maxHops < 1) {
        throw new picocli.CommandLine.ParameterException(
            spec.commandLine(), "--max-hops must be at least 1");
      }
      Routes routes = Routes.of(new CandidatePaths(TopologyLoader.load(topology), maxHops));
      writeOut(MAPPER.writeValueAsString(document(routes)) + "\n", out, spec);
      return 0;
    }

    /**
     * {"schema", "topology", "maxHops", "rule", "routes": {from: {to: {"port", "link", "next",
     * "hops"}}}}, switches in descriptor order; a switch that reaches no other has an empty table.
     */
    static Map<String, Object> document(Routes routes) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("schema", SCHEMA);
      doc.put("topology", routes.topology().name());
      doc.put("maxHops", routes.maxHops());
      doc.put(
          "rule",
          "per switch and destination switch, the first hop of the hop-shortest path (ties: the"
              + " lower link index, which is the lower port); generated by `bin/mpqoe topology"
              + " routes`");
      Map<String, Map<String, Object>> tables = new LinkedHashMap<>();
      for (SwitchNode s : routes.topology().switches()) {
        tables.put(s.name(), new LinkedHashMap<>());
      }
      for (Routes.Hop h : routes.hops()) {
        Map<String, Object> hop = new LinkedHashMap<>();
        hop.put("port", h.port());
        hop.put("link", h.link().index());
        hop.put("next", h.next().name());
        hop.put("hops", h.hops());
        tables.get(h.from().name()).put(h.to().name(), hop);
      }
      doc.put("routes", tables);
      return doc;
    }
  }

  @Command(
      name = "match",
      description = {
        "Print as JSON every isomorphism between two topologies' switch graphs (switches and"
            + " links; hosts and link values play no part), found by JGraphT's VF2 inspector: each"
            + " maps every switch of A to a switch of B. None when the graphs differ.",
        "E.g. `topology match topologies/framework/compuserve.json compuserve`: the GA paper's"
            + " authors' network onto CompuServe."
      })
  static final class Match implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "A")
    String from;

    @Parameters(index = "1", paramLabel = "B")
    String to;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      Topology a = TopologyLoader.load(from);
      Topology b = TopologyLoader.load(to);
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("from", a.name());
      doc.put("to", b.name());
      doc.put("mappings", SwitchGraphMatch.isomorphisms(a, b));
      writeOut(JSON.writeValueAsString(doc) + "\n", null, spec);
      return 0;
    }
  }

  @Command(
      name = "wiring",
      description =
          "Print as JSON a topology's named attachments (topologies/attachments/) and what the"
              + " framework rule yields on it: the GA paper's authors' wiring carried over (clients"
              + " on a chain of three switches, the server three switch-disjoint two-hop routes"
              + " away, as far as such routes allow; docs/video-experiments.md).")
  static final class Wiring implements Callable<Integer> {
    @Parameters(paramLabel = "NAME|FILE")
    String topology;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      Topology t = TopologyLoader.load(topology);
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("topology", t.name());
      doc.put("attachments", Attachment.of(t));
      doc.put("rule", FrameworkWiring.rule(t));
      writeOut(JSON.writeValueAsString(doc) + "\n", null, spec);
      return 0;
    }
  }

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /** Prints {@code text}, or writes it to {@code out} through a temporary file and a rename. */
  static void writeOut(String text, Path out, picocli.CommandLine.Model.CommandSpec spec)
      throws IOException {
    if (out == null) {
      spec.commandLine().getOut().print(text);
      spec.commandLine().getOut().flush();
      return;
    }
    Path tmp = Files.createTempFile(out.toAbsolutePath().getParent(), ".descriptor", ".tmp");
    Files.writeString(tmp, text);
    Files.move(tmp, out, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }
}
