package org.mpqoe.core.control;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Set;
import java.util.function.Supplier;
import org.mpqoe.core.packet.Addresses;
import org.mpqoe.core.path.LinkState;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.select.CongestionIndex;
import org.mpqoe.core.select.ConnectionStore;
import org.mpqoe.core.select.LinkCriticality;
import org.mpqoe.core.select.QomraBooks;
import org.mpqoe.core.select.QomraConfig;
import org.mpqoe.core.select.Resolution;
import org.mpqoe.core.select.SelectionConfig;
import org.mpqoe.core.topology.Link;
import org.mpqoe.core.topology.Topology;

/**
 * The controller's REST API, the same in both runtimes: each runtime only maps HTTP onto {@link
 * #handle}. Resources under {@code /mpqoe/}:
 *
 * <ul>
 *   <li>{@code GET topology}: switches and links with capacity, load, delay, congestion, up/down;
 *   <li>{@code GET connections}: MPTCP connections, their subflows, paths and how joins matched
 *       (one published snapshot of the connection table);
 *   <li>{@code GET stats}: packet-ins per kind and per handshake step, the option parser's
 *       counters, rules asked for and reported removed, selections, and per-step timings
 *       (percentiles over the last samples, microseconds);
 *   <li>{@code GET clients}: each client's assigned paths with their segment label lists, and the
 *       rules they cost per hop and with segment routing;
 *   <li>{@code GET qomra}: QoMRA's books: the per-connection path/label store, the admission
 *       reservations and criticality of every link, and counters;
 *   <li>{@code GET config}, {@code PUT config}: algorithm and thresholds; a PUT body is a JSON
 *       object with any of {@code algorithm, alpha, beta, thrDelayMs, thrCong} and QoMRA's {@code
 *       qomraK, qomraIntervalS, qomraResolution, qomraDelayWeight, qomraLossWeight,
 *       qomraCriticalityWeight, qomraCongestionWeight}; anything else, or an invalid value, is a
 *       400 with a message and changes nothing.
 * </ul>
 */
public final class RestApi {
  /** An HTTP answer: status and JSON body. */
  public record Response(int status, String json) {}

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> CONFIG_FIELDS =
      Set.of(
          "algorithm",
          "alpha",
          "beta",
          "thrDelayMs",
          "thrCong",
          "qomraK",
          "qomraIntervalS",
          "qomraResolution",
          "qomraDelayWeight",
          "qomraLossWeight",
          "qomraCriticalityWeight",
          "qomraCongestionWeight");

  private final Topology topology;
  private final MptcpRouter router;
  private final Supplier<LinkState> linkState;
  private final java.util.function.IntPredicate linkUp;

  public RestApi(
      Topology topology,
      MptcpRouter router,
      Supplier<LinkState> linkState,
      java.util.function.IntPredicate linkUp) {
    this.topology = topology;
    this.router = router;
    this.linkState = linkState;
    this.linkUp = linkUp;
  }

  public Response handle(String method, String path, String body) {
    String p = path == null ? "" : path.replaceAll("/+$", "");
    try {
      return switch (p) {
        case "/mpqoe/topology" -> get(method, this::topology);
        case "/mpqoe/connections" -> get(method, this::connections);
        case "/mpqoe/clients" -> get(method, this::clients);
        case "/mpqoe/qomra" -> get(method, this::qomra);
        case "/mpqoe/stats" -> get(method, this::stats);
        case "/mpqoe/config" ->
            switch (method) {
              case "GET" -> ok(config());
              case "PUT", "POST" -> putConfig(body);
              default -> error(405, "method " + method + " not allowed on " + p);
            };
        default -> error(404, "no resource " + p);
      };
    } catch (JsonProcessingException e) {
      return error(500, "cannot write JSON: " + e.getOriginalMessage());
    }
  }

  private interface Body {
    JsonNode build() throws JsonProcessingException;
  }

  private Response get(String method, Body body) throws JsonProcessingException {
    if (!"GET".equals(method)) {
      return error(405, "only GET is allowed here");
    }
    return ok(body.build());
  }

  private JsonNode topology() {
    LinkState s = linkState.get();
    ObjectNode root = JSON.createObjectNode();
    root.put("name", topology.name());
    ArrayNode sw = root.putArray("switches");
    topology.switches().forEach(x -> sw.addObject().put("name", x.name()).put("dpid", x.dpid()));
    ArrayNode links = root.putArray("links");
    for (Link l : topology.links()) {
      int i = l.index();
      links
          .addObject()
          .put("index", i)
          .put("a", l.a().name())
          .put("portA", l.portA())
          .put("b", l.b().name())
          .put("portB", l.portB())
          .put("up", linkUp.test(i))
          .put("capacityMbps", s.capacityMbps(i))
          .put("loadMbps", s.loadMbps(i))
          .put("delayMs", s.delayMs(i))
          .put("congestion", s.congestion(i));
    }
    return root;
  }

  private JsonNode connections() {
    ArrayNode list = JSON.createArrayNode();
    // One published snapshot: immutable connections, read without the router's lock.
    for (Connection c : router.connections()) {
      ObjectNode o = list.addObject();
      o.put("id", c.id());
      o.put("client", c.client().name());
      o.put("server", c.server().name());
      o.put("version", c.version());
      if (c.serverToken() != null) {
        o.put("serverToken", String.format("%08x", c.serverToken()));
      }
      ArrayNode subflows = o.putArray("subflows");
      for (Connection.Subflow sf : c.subflows()) {
        ObjectNode so = subflows.addObject();
        so.put("index", sf.index() + 1);
        so.put(
            "client", Addresses.formatIpv4(sf.toServer().srcIp()) + ":" + sf.toServer().srcPort());
        so.put(
            "server", Addresses.formatIpv4(sf.toServer().dstIp()) + ":" + sf.toServer().dstPort());
        so.put("pathIndex", sf.pathIndex() + 1);
        path(so.putArray("path"), sf.path());
        so.put("cookie", String.format("0x%016x", sf.cookie()));
        so.put("rules", sf.rules().size());
        so.put("matchedBy", sf.matchedBy().name().toLowerCase(java.util.Locale.ROOT));
        so.put("awaitsServer", sf.awaitsServer());
      }
    }
    return list;
  }

  private JsonNode stats() {
    ControlStats.Snapshot s = router.stats().snapshot();
    ObjectNode root = JSON.createObjectNode();
    counters(root.putObject("packetIns"), s.packetIns());
    counters(root.putObject("handshakeSteps"), s.handshakeSteps());
    counters(root.putObject("parse"), s.parse());
    counters(root.putObject("rules"), s.rules());
    root.put("selections", s.selections());
    ObjectNode timings = root.putObject("timingsUs");
    s.timings().entrySet().stream()
        .sorted(java.util.Map.Entry.comparingByKey())
        .forEach(
            e ->
                timings
                    .putObject(e.getKey().name().toLowerCase(java.util.Locale.ROOT))
                    .put("count", e.getValue().count())
                    .put("p50", e.getValue().p50Us())
                    .put("p90", e.getValue().p90Us())
                    .put("p99", e.getValue().p99Us())
                    .put("max", e.getValue().maxUs()));
    return root;
  }

  private JsonNode clients() {
    ArrayNode list = JSON.createArrayNode();
    for (var a : router.assignments()) {
      ObjectNode o = list.addObject();
      o.put("client", a.client().name());
      o.put("server", a.server().name());
      o.put("algorithm", a.selection().algorithm());
      o.put("connections", a.connections());
      o.put("fitness", a.selection().score().fitness());
      ArrayNode paths = o.putArray("paths");
      ArrayNode labels = o.putArray("labels");
      for (Path p : a.paths()) {
        if (p == null) {
          paths.addNull();
          labels.addNull();
        } else {
          path(paths.addArray(), p);
          ArrayNode l = labels.addArray();
          router.labels(p).forEach(l::add);
        }
      }
      int installed = 0;
      for (Connection c : router.connections()) {
        if (c.client().equals(a.client()) && c.server().equals(a.server())) {
          installed += c.subflows().stream().mapToInt(sf -> sf.rules().size()).sum();
        }
      }
      o.put("rulesInstalled", installed);
      o.put("rulesPerHop", router.rulesFor(a, false));
      o.put("rulesSegmentRouting", router.rulesFor(a, true));
    }
    return list;
  }

  private JsonNode qomra() {
    QomraBooks books = router.qomraBooks();
    ControlConfig c = router.config();
    QomraConfig q = c.qomra();
    LinkState s = linkState.get();
    ObjectNode root = JSON.createObjectNode();
    synchronized (books) {
      root.put("active", "qomra".equals(c.algorithm()));
      root.put("resolution", q.resolution().label());
      root.put("requiredMbps", q.requiredMbps());
      root.put("k", q.k());
      root.put("intervalS", q.intervalS());
      root.put("computations", books.computations());
      root.put("storeHits", books.storeHits());
      root.put("criticalityComputations", books.criticalityComputations());
      root.put("admittedSubflows", books.ledger().subflows());
      ArrayNode store = root.putArray("store");
      for (ConnectionStore.Entry e : books.store().entries()) {
        ObjectNode o = store.addObject();
        o.put("flow", e.flow());
        o.put("from", topology.switches().get(e.source()).name());
        o.put("to", topology.switches().get(e.destination()).name());
        o.put("complete", e.complete());
        o.put("admitted", books.ledger().of(e.flow()).size());
        ArrayNode paths = o.putArray("paths");
        for (int i = 0; i < e.paths().size(); i++) {
          ObjectNode po = paths.addObject();
          path(po.putArray("switches"), e.paths().get(i));
          ArrayNode l = po.putArray("labels");
          e.labels().get(i).forEach(l::add);
        }
      }
      LinkCriticality crit = books.lastCriticality();
      ArrayNode links = root.putArray("links");
      for (Link l : topology.links()) {
        int i = l.index();
        double used = books.ledger().usedMbps(i, s);
        links
            .addObject()
            .put("index", i)
            .put("a", l.a().name())
            .put("b", l.b().name())
            .put("capacityMbps", s.capacityMbps(i))
            .put("reservedMbps", books.ledger().reservedMbps(i))
            .put("criticality", crit.of(i))
            .put("congestionIndex", CongestionIndex.of(used, s.capacityMbps(i)));
      }
    }
    return root;
  }

  /** Enum-keyed counters as lower-case fields, in the enum's order. */
  private static <E extends Enum<E>> void counters(ObjectNode into, java.util.Map<E, Long> counts) {
    new java.util.TreeMap<>(counts)
        .forEach((k, v) -> into.put(k.name().toLowerCase(java.util.Locale.ROOT), v));
  }

  private void path(ArrayNode into, Path p) {
    p.switchNames(topology).forEach(into::add);
  }

  private JsonNode config() {
    ControlConfig c = router.config();
    ObjectNode o = JSON.createObjectNode();
    o.put("algorithm", c.algorithm());
    o.put("alpha", c.selection().alpha());
    o.put("beta", c.selection().beta());
    o.put("thrDelayMs", c.selection().thrDelayMs());
    o.put("thrCong", c.selection().thrCong());
    o.put("maxHops", c.maxHops());
    o.put("idleTimeoutS", c.idleTimeoutS());
    o.put("segmentRouting", c.segmentRouting());
    QomraConfig q = c.qomra();
    o.put("qomraK", q.k());
    o.put("qomraIntervalS", q.intervalS());
    o.put("qomraResolution", q.resolution().label());
    o.put("qomraRequiredMbps", q.requiredMbps());
    o.put("qomraDelayWeight", q.delayWeight());
    o.put("qomraLossWeight", q.lossWeight());
    o.put("qomraCriticalityWeight", q.criticalityWeight());
    o.put("qomraCongestionWeight", q.congestionWeight());
    return o;
  }

  private Response putConfig(String body) throws JsonProcessingException {
    JsonNode in;
    try {
      in = JSON.readTree(body == null ? "" : body);
    } catch (JsonProcessingException e) {
      return error(400, "body is not JSON: " + e.getOriginalMessage());
    }
    if (in == null || !in.isObject() || in.isEmpty()) {
      return error(400, "body must be a non-empty JSON object");
    }
    for (Iterator<String> it = in.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!CONFIG_FIELDS.contains(f)) {
        return error(
            400,
            "unknown field '"
                + f
                + "' (allowed: "
                + String.join(", ", CONFIG_FIELDS.stream().sorted().toList())
                + ")");
      }
    }
    ControlConfig c = router.config();
    SelectionConfig s = c.selection();
    try {
      String algorithm = in.has("algorithm") ? text(in, "algorithm") : c.algorithm();
      double alpha = in.has("alpha") ? number(in, "alpha") : s.alpha();
      double beta = in.has("beta") ? number(in, "beta") : s.beta();
      double thrDelay = in.has("thrDelayMs") ? number(in, "thrDelayMs") : s.thrDelayMs();
      double thrCong = in.has("thrCong") ? number(in, "thrCong") : s.thrCong();
      QomraConfig q = c.qomra();
      int k = in.has("qomraK") ? integer(in, "qomraK") : q.k();
      double interval = in.has("qomraIntervalS") ? number(in, "qomraIntervalS") : q.intervalS();
      Resolution resolution =
          in.has("qomraResolution")
              ? Resolution.parse(text(in, "qomraResolution"))
              : q.resolution();
      double wd = in.has("qomraDelayWeight") ? number(in, "qomraDelayWeight") : q.delayWeight();
      double wl = in.has("qomraLossWeight") ? number(in, "qomraLossWeight") : q.lossWeight();
      double wc =
          in.has("qomraCriticalityWeight")
              ? number(in, "qomraCriticalityWeight")
              : q.criticalityWeight();
      double wg =
          in.has("qomraCongestionWeight")
              ? number(in, "qomraCongestionWeight")
              : q.congestionWeight();
      ControlConfig next =
          c.withAlgorithm(algorithm)
              .withSelection(s.withWeights(alpha, beta).withThresholds(thrDelay, thrCong))
              .withQomra(new QomraConfig(k, interval, resolution, wd, wl, wc, wg));
      router.configure(next);
    } catch (IllegalArgumentException e) {
      return error(400, e.getMessage());
    }
    return ok(config());
  }

  private static String text(JsonNode in, String field) {
    JsonNode v = in.get(field);
    if (!v.isTextual()) {
      throw new IllegalArgumentException("'" + field + "' must be a string");
    }
    return v.asText();
  }

  private static int integer(JsonNode in, String field) {
    JsonNode v = in.get(field);
    if (!v.isIntegralNumber() || !v.canConvertToInt()) {
      throw new IllegalArgumentException("'" + field + "' must be an integer");
    }
    return v.asInt();
  }

  private static double number(JsonNode in, String field) {
    JsonNode v = in.get(field);
    if (!v.isNumber()) {
      throw new IllegalArgumentException("'" + field + "' must be a number");
    }
    return v.asDouble();
  }

  private static Response ok(JsonNode body) throws JsonProcessingException {
    return new Response(200, JSON.writeValueAsString(body));
  }

  private static Response error(int status, String message) {
    try {
      return new Response(
          status, JSON.writeValueAsString(JSON.createObjectNode().put("error", message)));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
