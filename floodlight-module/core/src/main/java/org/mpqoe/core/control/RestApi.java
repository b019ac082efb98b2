package org.mpqoe.core.control;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.mpqoe.core.packet.Addresses;
import org.mpqoe.core.path.LinkState;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.select.CongestionIndex;
import org.mpqoe.core.select.ConnectionStore;
import org.mpqoe.core.select.LinkCriticality;
import org.mpqoe.core.select.QomraBooks;
import org.mpqoe.core.select.QomraConfig;
import org.mpqoe.core.topology.DescriptorCheck;
import org.mpqoe.core.topology.Link;
import org.mpqoe.core.topology.Topology;

/**
 * The controller's REST API, the same in both runtimes: each runtime only maps HTTP onto {@link
 * #handle}. Resources under {@code /mpqoe/}:
 *
 * <ul>
 *   <li>{@code GET topology}: switches and links with capacity, load, delay, congestion, up/down,
 *       and whether LLDP has measured the link's delay yet ({@code delayKnown}); hosts and where
 *       their interfaces attach; where the topology came from ({@code source}: {@code descriptor},
 *       {@code discovered} or {@code descriptor+discovered}) and how the discovered network differs
 *       from the descriptor ({@code mismatches}: kind and message each);
 *   <li>{@code GET connections}: MPTCP connections, their subflows, paths and how joins matched
 *       (one published snapshot of the connection table);
 *   <li>{@code GET stats}: packet-ins per kind and per handshake step, the option parser's
 *       counters, rules asked for and reported removed, selections, and per-step timings
 *       (percentiles over the last samples, microseconds);
 *   <li>{@code GET clients}: each client's assigned paths with their segment label lists, and the
 *       rules they cost per hop and with segment routing;
 *   <li>{@code GET qomra}: QoMRA's books: the per-connection path/label store, the admission
 *       reservations and criticality of every link, and counters;
 *   <li>{@code GET config}, {@code PUT config}: every setting of {@link SettingsSchema}; a PUT body
 *       is one {@code application/json} object with any of the settings that may change at run
 *       time. Anything else (another content type, trailing text after the object, a duplicate or
 *       unknown key, a setting fixed at start, a value of the wrong type or out of range, an
 *       invalid combination) is refused with a message and changes nothing.
 * </ul>
 *
 * <p>Writes may need a token ({@link RestAccess}). Error messages quote at most {@link
 * SettingsSchema#QUOTE_MAX} characters of what the client sent.
 */
public final class RestApi {
  /** An HTTP answer: status, JSON body and headers the runtime must add (Allow, ...). */
  public record Response(int status, String json, Map<String, String> headers) {
    public Response(int status, String json) {
      this(status, json, Map.of());
    }
  }

  /**
   * An HTTP request as the runtime received it.
   *
   * @param contentType the {@code Content-Type} header, null if absent
   * @param authorization the {@code Authorization} header, null if absent
   * @param body the body as text, null if none
   * @param host the {@code Host} header, null if absent or not over HTTP
   * @param client the client's address and port, for the log ({@link #clientAddress}); null if
   *     unknown
   */
  public record Request(
      String method,
      String path,
      String contentType,
      String authorization,
      String body,
      String host,
      String client) {
    /** A client's address as {@link #client} wants it: ip:port, [v6]:port; null if unknown. */
    public static String clientAddress(String ip, int port) {
      return ip == null ? null : (ip.contains(":") ? "[" + ip + "]" : ip) + ":" + port;
    }

    /** A request without Host header and client address (not over HTTP: tests, tools). */
    public Request(
        String method, String path, String contentType, String authorization, String body) {
      this(method, path, contentType, authorization, body, null, null);
    }
  }

  /** The largest request body accepted, in characters. */
  public static final int MAX_BODY = 64 * 1024;

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Reads request bodies: one JSON value, no duplicate keys, nothing after it. */
  private static final ObjectMapper STRICT =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private final Supplier<Topology> currentTopology;
  private final MptcpRouter router;
  private final Supplier<LinkState> linkState;
  private final java.util.function.IntPredicate linkUp;
  private final java.util.function.Predicate<Link> delayKnown;
  private final Supplier<String> source;
  private final Supplier<List<DescriptorCheck.Mismatch>> mismatches;
  private volatile Consumer<String> changes = line -> {};

  /**
   * @param topology the current topology (it may be replaced at run time)
   * @param source where it came from
   * @param mismatches how the network differs from the descriptor
   */
  public RestApi(
      Supplier<Topology> topology,
      MptcpRouter router,
      Supplier<LinkState> linkState,
      java.util.function.IntPredicate linkUp,
      java.util.function.Predicate<Link> delayKnown,
      Supplier<String> source,
      Supplier<List<DescriptorCheck.Mismatch>> mismatches) {
    this.currentTopology = topology;
    this.router = router;
    this.linkState = linkState;
    this.linkUp = linkUp;
    this.delayKnown = delayKnown;
    this.source = source;
    this.mismatches = mismatches;
  }

  /**
   * Where each configuration change made through the API is told, one line (the runtime's log):
   * which settings changed, from what to what, and the client's address; never the token.
   */
  public void onChange(Consumer<String> log) {
    this.changes = Objects.requireNonNull(log);
  }

  /**
   * A request from a local JSON client: loopback access, {@code application/json} body (tests,
   * tools).
   */
  public Response handle(String method, String path, String body) {
    return handle(new Request(method, path, "application/json", null, body), RestAccess.LOOPBACK);
  }

  /** Answers one request; nothing changes unless the answer is a 200 to a write. */
  public Response handle(Request request, RestAccess access) {
    Response refused = access.check(request.method(), request.authorization(), request.host());
    return refused != null ? refused : dispatch(request);
  }

  private Response dispatch(Request request) {
    String method = request.method();
    String path = request.path();
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
              case "PUT" -> putConfig(request);
              default -> notAllowed(method, p, "GET, PUT");
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
      return notAllowed(method, "this resource", "GET");
    }
    return ok(body.build());
  }

  private static Response notAllowed(String method, String what, String allow) {
    return error(
        405,
        "method " + SettingsSchema.quote(String.valueOf(method)) + " not allowed on " + what,
        Map.of("Allow", allow));
  }

  private JsonNode topology() {
    Topology topology = currentTopology.get();
    LinkState s = linkState.get();
    if (s.size() != topology.links().size()) {
      // Read between a topology replacement and the link state's: read both again.
      topology = currentTopology.get();
      s = linkState.get();
    }
    ObjectNode root = JSON.createObjectNode();
    root.put("name", topology.name());
    root.put("source", source.get());
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
          .put("delayKnown", delayKnown.test(l))
          .put("congestion", s.congestion(i));
    }
    ArrayNode hosts = root.putArray("hosts");
    for (org.mpqoe.core.topology.Host h : topology.hosts()) {
      ObjectNode ho = hosts.addObject().put("name", h.name()).put("role", h.role().name());
      ArrayNode ifs = ho.putArray("interfaces");
      h.interfaces()
          .forEach(
              f ->
                  ifs.addObject()
                      .put("ip", f.ip())
                      .put("switch", f.attachment().name())
                      .put("port", f.port()));
    }
    ArrayNode mm = root.putArray("mismatches");
    for (DescriptorCheck.Mismatch m : mismatches.get()) {
      mm.addObject().put("kind", m.kind().name()).put("message", m.message());
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
        so.put("copiesSynAck", sf.copiesSynAck());
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
    Topology topology = currentTopology.get();
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
        if (i >= s.size()) {
          break; // the topology was replaced meanwhile
        }
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
    if (p != null) {
      p.switchNames(currentTopology.get()).forEach(into::add);
    }
  }

  private JsonNode config() {
    ControlConfig c = router.config();
    ObjectNode o = JSON.createObjectNode();
    SettingsSchema.values(c).forEach((name, v) -> o.set(name, JSON.valueToTree(v)));
    o.put("qomraRequiredMbps", c.qomra().requiredMbps());
    return o;
  }

  private Response putConfig(Request request) throws JsonProcessingException {
    String body = request.body() == null ? "" : request.body();
    if (body.length() > MAX_BODY) {
      return error(413, "body is larger than " + MAX_BODY + " characters");
    }
    if (!isJson(request.contentType())) {
      return error(
          415,
          "body must be application/json, got "
              + (request.contentType() == null
                  ? "no Content-Type"
                  : SettingsSchema.quote(request.contentType())));
    }
    JsonNode in;
    try {
      in = STRICT.readTree(body);
    } catch (JsonProcessingException e) {
      return error(400, "body is not one JSON object: " + brief(e.getOriginalMessage()));
    }
    if (in == null || !in.isObject() || in.isEmpty()) {
      return error(400, "body must be a non-empty JSON object");
    }
    Map<SettingsSchema.Setting, Object> values = new LinkedHashMap<>();
    try {
      for (Iterator<Map.Entry<String, JsonNode>> it = in.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> f = it.next();
        SettingsSchema.Setting s = SettingsSchema.named(f.getKey()).orElse(null);
        if (s == null) {
          return error(
              400,
              "unknown field "
                  + SettingsSchema.quote(f.getKey())
                  + " (allowed: "
                  + String.join(", ", changeable())
                  + ")");
        }
        if (!s.changeableAtRunTime()) {
          return error(
              400, "'" + s.name() + "' is set at start only: restart the controller to change it");
        }
        values.put(s, s.fromJson(f.getValue()));
      }
      ControlConfig before = router.config();
      router.configure(SettingsSchema.apply(before, values));
      changes.accept(change(before, router.config(), request.client()));
    } catch (IllegalArgumentException e) {
      return error(400, brief(e.getMessage()));
    }
    return ok(config());
  }

  /** The log line of a configuration change: each setting that changed, old and new value. */
  static String change(ControlConfig before, ControlConfig after, String client) {
    Map<String, Object> old = SettingsSchema.values(before);
    List<String> parts = new ArrayList<>();
    SettingsSchema.values(after)
        .forEach(
            (name, v) -> {
              if (!Objects.equals(old.get(name), v)) {
                parts.add(name + " " + old.get(name) + " -> " + v);
              }
            });
    return "REST: configuration changed by "
        + (client == null ? "an unknown client" : client)
        + ": "
        + (parts.isEmpty() ? "nothing (the values it already had)" : String.join(", ", parts));
  }

  private static List<String> changeable() {
    return SettingsSchema.ALL.stream()
        .filter(SettingsSchema.Setting::changeableAtRunTime)
        .map(SettingsSchema.Setting::name)
        .toList();
  }

  /** application/json, with or without parameters (charset). */
  private static boolean isJson(String contentType) {
    if (contentType == null) {
      return false;
    }
    String type = contentType.split(";", 2)[0].trim();
    return type.equalsIgnoreCase("application/json");
  }

  /** A message cut to a length that never echoes a large body back. */
  private static String brief(String message) {
    String m = String.valueOf(message);
    int max = 4 * SettingsSchema.QUOTE_MAX;
    return m.length() <= max ? m : m.substring(0, max) + "... (cut)";
  }

  private static Response ok(JsonNode body) throws JsonProcessingException {
    return new Response(200, JSON.writeValueAsString(body));
  }

  private static Response error(int status, String message) {
    return error(status, message, Map.of());
  }

  static Response error(int status, String message, Map<String, String> headers) {
    try {
      return new Response(
          status, JSON.writeValueAsString(JSON.createObjectNode().put("error", message)), headers);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
