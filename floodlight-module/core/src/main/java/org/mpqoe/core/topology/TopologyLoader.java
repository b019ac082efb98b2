package org.mpqoe.core.topology;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

/**
 * Reads and validates topology descriptors (schema in {@code topologies/README.md}). Every problem
 * is reported as a {@link TopologyException} whose message names the offending element.
 */
public final class TopologyLoader {
  private static final String RESOURCE_DIR = "topologies/";
  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]*");
  private static final Pattern IPV4 =
      Pattern.compile(
          "((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)");
  private static final Pattern MAC = Pattern.compile("([0-9a-f]{2}:){5}[0-9a-f]{2}");

  private static final ObjectMapper MAPPER =
      new ObjectMapper()
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(SerializationFeature.INDENT_OUTPUT);

  private TopologyLoader() {}

  /**
   * Loads {@code nameOrPath}: an embedded descriptor name (e.g. {@code compuserve}) or the path of
   * a descriptor file.
   */
  public static Topology load(String nameOrPath) {
    if (NAME.matcher(nameOrPath).matches()) {
      try (InputStream in = resource(nameOrPath)) {
        if (in != null) {
          return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), nameOrPath);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    Path file = Path.of(nameOrPath);
    if (!Files.isRegularFile(file)) {
      throw new TopologyException(
          "unknown topology '"
              + nameOrPath
              + "' (known: "
              + String.join(", ", embeddedNames())
              + "; or give a descriptor file)");
    }
    return load(file);
  }

  /** Loads a descriptor file. */
  public static Topology load(Path file) {
    try {
      return parse(Files.readString(file), file.toString());
    } catch (IOException e) {
      throw new TopologyException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /** Parses and validates descriptor text; {@code origin} names it in error messages. */
  public static Topology parse(String json, String origin) {
    Descriptor d;
    try {
      d = MAPPER.readValue(json, Descriptor.class);
    } catch (UnrecognizedPropertyException e) {
      throw new TopologyException(
          origin + ": unknown field '" + e.getPropertyName() + "' at " + e.getPathReference());
    } catch (JsonProcessingException e) {
      throw new TopologyException(origin + ": not a descriptor: " + e.getOriginalMessage());
    }
    if (d == null) {
      throw new TopologyException(origin + ": empty descriptor");
    }
    return new Validator(d, origin).build();
  }

  /** Serialises a descriptor in the canonical layout (2-space indent, trailing newline). */
  public static String write(Descriptor d) {
    try {
      return MAPPER.writer(new CanonicalPrinter()).writeValueAsString(d) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Names of the descriptors embedded in this build, sorted. */
  public static List<String> embeddedNames() {
    Set<String> names = new TreeSet<>();
    try {
      var source = TopologyLoader.class.getProtectionDomain().getCodeSource();
      if (source != null) {
        Path location = Path.of(source.getLocation().toURI());
        if (Files.isDirectory(location)) {
          Path dir = location.resolve(RESOURCE_DIR);
          if (Files.isDirectory(dir)) {
            try (Stream<Path> files = Files.list(dir)) {
              files.map(p -> p.getFileName().toString()).forEach(n -> addName(names, n));
            }
          }
        } else {
          try (ZipFile zip = new ZipFile(location.toFile())) {
            zip.stream()
                .map(e -> e.getName())
                .filter(
                    n -> n.startsWith(RESOURCE_DIR) && n.indexOf('/', RESOURCE_DIR.length()) < 0)
                .forEach(n -> addName(names, n.substring(RESOURCE_DIR.length())));
          }
        }
      }
    } catch (IOException | URISyntaxException e) {
      throw new IllegalStateException("cannot list embedded topologies", e);
    }
    return List.copyOf(names);
  }

  private static void addName(Set<String> names, String fileName) {
    if (fileName.endsWith(".json")) {
      names.add(fileName.substring(0, fileName.length() - ".json".length()));
    }
  }

  private static InputStream resource(String name) {
    return TopologyLoader.class.getClassLoader().getResourceAsStream(RESOURCE_DIR + name + ".json");
  }

  /** Turns a descriptor into a topology, or throws naming the first problem found. */
  private static final class Validator {
    private final Descriptor d;
    private final String origin;
    private final Map<String, SwitchNode> switches = new HashMap<>();
    private final Map<Integer, Integer> nextPort = new HashMap<>();

    Validator(Descriptor d, String origin) {
      this.d = d;
      this.origin = origin;
    }

    Topology build() {
      if (d.schema() == null || d.schema() != 1) {
        fail("\"schema\" must be 1");
      }
      String name = require(d.name(), "name");
      if (!NAME.matcher(name).matches()) {
        fail("name '" + name + "' must match [a-z0-9][a-z0-9-]*");
      }
      String description = require(d.description(), "description");
      List<SwitchNode> nodes = switches();
      List<Link> links = links();
      List<Host> hosts = hosts();
      List<SwitchNode> clientSwitches = clientSwitches(nodes, hosts);
      LinkModel model = linkModel();
      draw();
      return new Topology(
          name,
          description,
          Boolean.TRUE.equals(d.approximation()),
          nodes,
          links,
          hosts,
          clientSwitches,
          model,
          d);
    }

    private List<SwitchNode> switches() {
      if (d.switches() == null || d.switches().isEmpty()) {
        fail("\"switches\" must list at least one switch");
      }
      List<SwitchNode> nodes = new ArrayList<>();
      Set<Long> dpids = new HashSet<>();
      for (int i = 0; i < d.switches().size(); i++) {
        var s = d.switches().get(i);
        String where = "switches[" + i + "]";
        if (s == null) {
          fail(where + " is null");
        }
        String n = require(s.name(), where + ".name");
        long dpid = s.dpid() == null ? i + 1L : s.dpid();
        if (dpid <= 0) {
          fail(where + ".dpid must be positive");
        }
        if (switches.containsKey(n)) {
          fail("switch name '" + n + "' is repeated");
        }
        if (!dpids.add(dpid)) {
          fail("dpid " + dpid + " of switch '" + n + "' is repeated");
        }
        SwitchNode node = new SwitchNode(i, n, dpid);
        switches.put(n, node);
        nodes.add(node);
      }
      return nodes;
    }

    private List<Link> links() {
      List<Link> links = new ArrayList<>();
      List<Descriptor.LinkJson> raw = d.links() == null ? List.of() : d.links();
      for (int i = 0; i < raw.size(); i++) {
        var l = raw.get(i);
        String where = "links[" + i + "]";
        if (l == null) {
          fail(where + " is null");
        }
        SwitchNode a = knownSwitch(l.a(), where + ".a");
        SwitchNode b = knownSwitch(l.b(), where + ".b");
        if (a.index() == b.index()) {
          fail(where + " joins switch '" + a.name() + "' to itself");
        }
        double capacity = positive(l.capacityMbps(), where + ".capacityMbps");
        double delay = nonNegative(l.delayMs(), where + ".delayMs");
        double loss = loss(l.lossPct(), where + ".lossPct");
        links.add(new Link(i, a, port(a), b, port(b), capacity, delay, loss));
      }
      return links;
    }

    private List<Host> hosts() {
      List<Host> hosts = new ArrayList<>();
      List<Descriptor.HostJson> raw = d.hosts() == null ? List.of() : d.hosts();
      Set<String> names = new HashSet<>();
      Set<String> ips = new HashSet<>();
      Set<String> macs = new HashSet<>();
      for (int i = 0; i < raw.size(); i++) {
        var h = raw.get(i);
        String where = "hosts[" + i + "]";
        if (h == null) {
          fail(where + " is null");
        }
        String hostName = require(h.name(), where + ".name");
        if (!names.add(hostName)) {
          fail("host name '" + hostName + "' is repeated");
        }
        Host.Role role =
            switch (require(h.role(), where + ".role")) {
              case "server" -> Host.Role.SERVER;
              case "client" -> Host.Role.CLIENT;
              default -> throw error(where + ".role must be \"server\" or \"client\"");
            };
        if (h.interfaces() == null || h.interfaces().isEmpty()) {
          fail(where + " (" + hostName + ") has no interfaces");
        }
        List<HostInterface> ifaces = new ArrayList<>();
        for (int k = 0; k < h.interfaces().size(); k++) {
          var f = h.interfaces().get(k);
          String fw = where + ".interfaces[" + k + "]";
          if (f == null) {
            fail(fw + " is null");
          }
          String ip = require(f.ip(), fw + ".ip");
          if (!IPV4.matcher(ip).matches()) {
            fail(fw + ".ip '" + ip + "' is not an IPv4 address");
          }
          if (!ips.add(ip)) {
            // Strong end-system model: a subflow's path ends at the interface that owns its
            // address, so an address on two links (the weak host model) is refused.
            fail(
                fw
                    + ".ip "
                    + ip
                    + " is repeated: an address belongs to one interface, on one link (a host"
                    + " on several links has one address per link)");
          }
          String mac = require(f.mac(), fw + ".mac");
          if (!MAC.matcher(mac).matches()) {
            fail(fw + ".mac '" + mac + "' is not a lower-case colon-separated MAC address");
          }
          if (!macs.add(mac)) {
            fail(fw + ".mac " + mac + " is repeated");
          }
          SwitchNode at = knownSwitch(f.switchName(), fw + ".switch");
          double capacity =
              f.capacityMbps() == null
                  ? Double.NaN
                  : positive(f.capacityMbps(), fw + ".capacityMbps");
          double delay = f.delayMs() == null ? 0 : nonNegative(f.delayMs(), fw + ".delayMs");
          double loss = loss(f.lossPct(), fw + ".lossPct");
          ifaces.add(new HostInterface(ip, mac, at, port(at), capacity, delay, loss));
        }
        hosts.add(new Host(hostName, role, ifaces));
      }
      return hosts;
    }

    private List<SwitchNode> clientSwitches(List<SwitchNode> nodes, List<Host> hosts) {
      if (d.clientSwitches() != null) {
        List<SwitchNode> result = new ArrayList<>();
        for (int i = 0; i < d.clientSwitches().size(); i++) {
          result.add(knownSwitch(d.clientSwitches().get(i), "clientSwitches[" + i + "]"));
        }
        return result;
      }
      Set<Integer> serverSwitches = new HashSet<>();
      for (Host h : hosts) {
        if (h.role() == Host.Role.SERVER) {
          h.interfaces().forEach(f -> serverSwitches.add(f.attachment().index()));
        }
      }
      return nodes.stream().filter(s -> !serverSwitches.contains(s.index())).toList();
    }

    private LinkModel linkModel() {
      var s = d.scenario();
      if (s == null) {
        return null;
      }
      double[] delay = range(s.delayMs(), "scenario.delayMs");
      if (s.bandwidthMbps() == null || s.bandwidthMbps().isEmpty()) {
        fail("scenario.bandwidthMbps must give moments for at least one number of clients");
      }
      TreeMap<Integer, LinkModel.Moments> rows = new TreeMap<>();
      for (var e : s.bandwidthMbps().entrySet()) {
        String where = "scenario.bandwidthMbps." + e.getKey();
        int clients;
        try {
          clients = Integer.parseInt(e.getKey());
        } catch (NumberFormatException ex) {
          throw error(where + ": key must be a number of clients");
        }
        if (clients <= 0 || e.getValue() == null) {
          fail(where + " must be a positive number of clients with {mean, std}");
        }
        rows.put(clients, moments(e.getValue(), where));
      }
      int population = 0;
      if (s.gaPopulation() != null) {
        population = s.gaPopulation();
        if (population < 2) {
          fail("scenario.gaPopulation must be at least 2");
        }
      }
      return new LinkModel(delay[0], delay[1], rows, population);
    }

    /** Checks the optional record of how {@code with-clients} made this file (not used here). */
    private void draw() {
      var w = d.draw();
      if (w == null) {
        return;
      }
      if (w.seed() == null) {
        fail("\"draw.seed\" is missing");
      }
      if (w.clients() == null || w.clients() < 1) {
        fail("draw.clients must be at least 1");
      }
      if (w.interfaces() == null || w.interfaces() < 1) {
        fail("draw.interfaces must be at least 1");
      }
      switch (require(w.links(), "draw.links")) {
        case "paper" -> {
          moments(w.bandwidthMbps(), "draw.bandwidthMbps");
          range(w.delayMs(), "draw.delayMs");
          moments(w.realisedMbps(), "draw.realisedMbps");
        }
        case "descriptor" -> {
          if (w.bandwidthMbps() != null || w.delayMs() != null || w.realisedMbps() != null) {
            fail("draw with links \"descriptor\" has no bandwidthMbps, delayMs or realisedMbps");
          }
        }
        default -> fail("draw.links must be \"paper\" or \"descriptor\"");
      }
      if (w.accessCapacityMbps() != null) {
        positive(w.accessCapacityMbps(), "draw.accessCapacityMbps");
      }
    }

    /** {min, max} of a range, both >= 0, max not below min. */
    private double[] range(Descriptor.RangeJson r, String where) {
      if (r == null) {
        fail(where + " is missing");
      }
      double min = nonNegative(r.min(), where + ".min");
      double max = nonNegative(r.max(), where + ".max");
      if (max < min) {
        fail(where + ".max is below its min");
      }
      return new double[] {min, max};
    }

    /** Mean > 0 and std >= 0. */
    private LinkModel.Moments moments(Descriptor.MomentsJson m, String where) {
      if (m == null) {
        fail(where + " is missing");
      }
      return new LinkModel.Moments(
          positive(m.mean(), where + ".mean"), nonNegative(m.std(), where + ".std"));
    }

    private int port(SwitchNode s) {
      return nextPort.merge(s.index(), 1, Integer::sum);
    }

    private SwitchNode knownSwitch(String n, String where) {
      require(n, where);
      SwitchNode s = switches.get(n);
      if (s == null) {
        fail(where + " names unknown switch '" + n + "'");
      }
      return s;
    }

    private String require(String value, String where) {
      if (value == null || value.isBlank()) {
        fail("\"" + where + "\" is missing");
      }
      return value;
    }

    private double positive(Double v, String where) {
      if (v == null || !(v > 0) || v.isInfinite()) {
        fail(where + " must be a positive number");
      }
      return v;
    }

    private double nonNegative(Double v, String where) {
      if (v == null || !(v >= 0) || v.isInfinite()) {
        fail(where + " must be a number >= 0");
      }
      return v;
    }

    private double loss(Double v, String where) {
      if (v == null) {
        return 0;
      }
      if (!(v >= 0 && v < 100)) {
        fail(where + " must be in [0, 100)");
      }
      return v;
    }

    private void fail(String message) {
      throw error(message);
    }

    private TopologyException error(String message) {
      return new TopologyException(origin + ": " + message);
    }
  }
}
