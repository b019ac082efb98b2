package org.mpqoe.core.control;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.mpqoe.core.mptcp.MptcpHandshake;
import org.mpqoe.core.mptcp.Tokens;
import org.mpqoe.core.packet.Addresses;
import org.mpqoe.core.path.CandidatePaths;
import org.mpqoe.core.path.LinkState;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.select.PathSelector;
import org.mpqoe.core.select.QomraBooks;
import org.mpqoe.core.select.QomraSelector;
import org.mpqoe.core.select.Selection;
import org.mpqoe.core.select.SelectionProblem;
import org.mpqoe.core.select.Selectors;
import org.mpqoe.core.select.StatefulSelector;
import org.mpqoe.core.topology.Host;
import org.mpqoe.core.topology.HostInterface;
import org.mpqoe.core.topology.Topology;

/**
 * Reactive MPTCP subflow routing, as the GA paper's controller does it. The first SYN of a
 * connection (MP_CAPABLE) makes the controller choose up to N paths for the client (unless it has
 * an assignment already) and install the rules of subflow 1 on path 1 in both directions; the
 * server-side rule of the reverse direction also copies to the controller, which reads the server's
 * key from the SYN/ACK and so learns the token that later MP_JOIN SYNs carry. An MP_JOIN SYN is
 * tied to its connection by that token (or, when no key was seen, by client and server host) and
 * its subflow gets the i-th path for the client's i-th interface without selecting again; with no
 * i-th path it gets no rules and cannot be established. A link going down moves the subflows that
 * used it. All methods are synchronized: runtimes may call from several threads.
 */
public final class MptcpRouter {

  /**
   * The paths chosen for one client towards one server, and how many connections use them. {@code
   * paths.get(i)} carries the subflow of the client's i-th interface; a null entry (after a link
   * failure left no replacement) means that interface's subflow gets no rules.
   */
  public record Assignment(
      Host client, Host server, Selection selection, List<Path> paths, int connections) {
    /** The path of index i, or null when there is none. */
    public Path path(int i) {
      return i < paths.size() ? paths.get(i) : null;
    }

    /** The first index with a path (0 when none has one). */
    public int firstPathIndex() {
      for (int i = 0; i < paths.size(); i++) {
        if (paths.get(i) != null) {
          return i;
        }
      }
      return 0;
    }

    /** The distinct paths in use. */
    public List<Path> distinctPaths() {
      return paths.stream().filter(java.util.Objects::nonNull).distinct().toList();
    }
  }

  private final Topology topology;
  private final HostDirectory hosts;
  private final CandidatePaths paths;
  private final LinkStateTracker links;
  private final SubflowRules subflowRules;
  private final SegmentRouting segmentRouting;
  private final QomraBooks qomraBooks = new QomraBooks();
  private final long startNanos = System.nanoTime();
  private ControlConfig config;
  private PathSelector selector;

  private final Map<String, Assignment> assignments = new LinkedHashMap<>();
  private final Map<Path, Integer> users = new HashMap<>();
  private final Map<Integer, Connection> connections = new LinkedHashMap<>();
  private final Map<Integer, Connection> byToken = new HashMap<>();
  private final Map<FlowMatch.Subflow, Connection> bySubflow = new HashMap<>();
  private int nextConnection = 1;
  private long selections;

  public MptcpRouter(
      Topology topology,
      HostDirectory hosts,
      CandidatePaths paths,
      LinkStateTracker links,
      ControlConfig config) {
    this.topology = topology;
    this.hosts = hosts;
    this.paths = paths;
    this.links = links;
    this.segmentRouting = new SegmentRouting(topology);
    this.subflowRules = new SubflowRules(topology, segmentRouting);
    configure(config);
  }

  /**
   * New settings; existing assignments and rules stay, later selections use the new ones. QoMRA's
   * books (admission, connection store, criticality) belong to the router and survive a change.
   */
  public synchronized void configure(ControlConfig newConfig) {
    this.selector =
        Selectors.create(
            newConfig.algorithm(),
            newConfig.ga(),
            newConfig.qomra(),
            new QomraSelector.Context(
                qomraBooks, l -> topology.links().get(l).lossPct(), segmentRouting::labels));
    this.config = newConfig;
  }

  public synchronized ControlConfig config() {
    return config;
  }

  /** Handles an MPTCP handshake segment; empty when the segment is not MPTCP business. */
  public synchronized Optional<Reaction> handle(TcpSegment s) {
    if (s.signal() instanceof MptcpHandshake.CapableSyn c) {
      return Optional.of(capableSyn(s, c.version()));
    }
    if (s.signal() instanceof MptcpHandshake.CapableSynAck a) {
      return capableSynAck(s, a);
    }
    if (s.signal() instanceof MptcpHandshake.JoinSyn j) {
      return Optional.of(joinSyn(s, j));
    }
    return Optional.empty();
  }

  private Reaction capableSyn(TcpSegment s, int version) {
    var client = hosts.byIp(s.srcIp()).orElse(null);
    var server = hosts.byIp(s.dstIp()).orElse(null);
    if (client == null || client.host().role() != Host.Role.CLIENT) {
      return Reaction.ignored(
          "MP_CAPABLE SYN from " + Addresses.formatIpv4(s.srcIp()) + ": not a client");
    }
    if (server == null || server.host().role() != Host.Role.SERVER) {
      return Reaction.ignored(
          "MP_CAPABLE SYN to " + Addresses.formatIpv4(s.dstIp()) + ": not a server");
    }
    if (client.iface().attachment().dpid() != s.dpid()) {
      return Reaction.ignored("MP_CAPABLE SYN seen away from the client's first-hop switch");
    }
    Connection known = bySubflow.get(s.match());
    if (known != null) {
      return resend(s, "retransmitted MP_CAPABLE SYN of connection " + known.id);
    }
    Assignment a = assignment(client.host(), server.host());
    if (a.selection().isEmpty() || a.distinctPaths().isEmpty()) {
      if (a.connections() == 0) {
        // Not kept: the next SYN selects again (QoMRA may admit it once capacity frees).
        assignments.remove(key(client.host(), server.host()));
        a.distinctPaths().forEach(p -> users.merge(p, -1, Integer::sum));
      }
      return Reaction.dropped(
          "no admissible path for " + client.host().name() + ": connection not routed");
    }
    Connection c =
        new Connection(nextConnection++, client.host(), server.host(), version, System.nanoTime());
    connections.put(c.id, c);
    assignments.put(key(client.host(), server.host()), withConnections(a, a.connections() + 1));
    Connection.Subflow sf =
        subflow(c, s, client, server, a.firstPathIndex(), Connection.MatchedBy.HANDSHAKE, true);
    return new Reaction(
        Reaction.Kind.MPTCP,
        new FlowPlan(List.of(), sf.rules(), List.of(), packetOut(s)),
        "connection "
            + c.id
            + " (MPTCP v"
            + version
            + ") "
            + client.host().name()
            + " -> "
            + server.host().name()
            + ": subflow 1 on "
            + sf.path().describe(topology)
            + " ("
            + a.distinctPaths().size()
            + " path(s) assigned)");
  }

  private Optional<Reaction> capableSynAck(TcpSegment s, MptcpHandshake.CapableSynAck a) {
    FlowMatch.Subflow toServer = s.match().reversed();
    Connection c = bySubflow.get(toServer);
    if (c == null) {
      return Optional.empty();
    }
    c.serverKey = a.serverKey();
    c.serverToken = Tokens.token(a.serverKey(), a.version());
    byToken.put(c.serverToken, c);
    Connection.Subflow sf = c.subflows.get(0);
    List<FlowRule> modified = new ArrayList<>();
    List<FlowRule> current = new ArrayList<>();
    for (FlowRule r : sf.rules()) {
      if (r.actions().stream().anyMatch(x -> x instanceof FlowAction.ToController)) {
        r = subflowRules.withoutControllerCopy(r);
        modified.add(r);
      }
      current.add(r);
    }
    c.subflows.set(
        0,
        new Connection.Subflow(
            sf.index(),
            sf.toServer(),
            sf.clientInterface(),
            sf.serverInterface(),
            sf.pathIndex(),
            sf.path(),
            sf.cookie(),
            sf.matchedBy(),
            current));
    return Optional.of(
        new Reaction(
            Reaction.Kind.MPTCP,
            new FlowPlan(List.of(), List.of(), modified, null),
            String.format(
                "connection %d: server key seen, token %08x; server-side copy rule removed",
                c.id, c.serverToken)));
  }

  private Reaction joinSyn(TcpSegment s, MptcpHandshake.JoinSyn j) {
    var client = hosts.byIp(s.srcIp()).orElse(null);
    var server = hosts.byIp(s.dstIp()).orElse(null);
    if (client == null || server == null || client.host().role() != Host.Role.CLIENT) {
      return Reaction.ignored("MP_JOIN SYN between unknown hosts");
    }
    if (client.iface().attachment().dpid() != s.dpid()) {
      return Reaction.ignored("MP_JOIN SYN seen away from the client's first-hop switch");
    }
    Connection known = bySubflow.get(s.match());
    if (known != null) {
      return resend(s, "retransmitted MP_JOIN SYN of connection " + known.id);
    }
    Connection c = byToken.get(j.token());
    Connection.MatchedBy how = Connection.MatchedBy.TOKEN;
    if (c == null) {
      c = latest(client.host(), server.host());
      how = Connection.MatchedBy.HOST_IDENTITY;
    }
    if (c == null) {
      return Reaction.dropped(String.format("MP_JOIN SYN with unknown token %08x", j.token()));
    }
    Assignment a = assignments.get(key(c.client, c.server));
    int pathIndex = client.index();
    if (a == null || a.path(pathIndex) == null) {
      return Reaction.dropped(
          "connection "
              + c.id
              + ": no path "
              + (pathIndex + 1)
              + " for interface "
              + client.iface().ip()
              + ", subflow not established (matched by "
              + how
              + ")");
    }
    Connection.Subflow sf = subflow(c, s, client, server, pathIndex, how, false);
    return new Reaction(
        Reaction.Kind.MPTCP,
        new FlowPlan(List.of(), sf.rules(), List.of(), packetOut(s)),
        "connection "
            + c.id
            + ": subflow "
            + (sf.index() + 1)
            + " from "
            + client.iface().ip()
            + " on "
            + sf.path().describe(topology)
            + " (matched by "
            + how
            + ")");
  }

  /** Creates, records and returns a subflow with its rules. */
  private Connection.Subflow subflow(
      Connection c,
      TcpSegment s,
      HostDirectory.Attachment client,
      HostDirectory.Attachment server,
      int pathIndex,
      Connection.MatchedBy how,
      boolean learnKey) {
    Path path = pathFor(c, pathIndex, client.iface(), server.iface());
    int index = c.nextSubflow++;
    long cookie = Cookies.of(Cookies.SUBFLOW, c.id, 0, index);
    List<FlowRule> rules =
        subflowRules.build(
            s.match(), client.iface(), server.iface(), path, config, cookie, learnKey);
    Connection.Subflow sf =
        new Connection.Subflow(
            index, s.match(), client.index(), server.index(), pathIndex, path, cookie, how, rules);
    c.subflows.add(sf);
    bySubflow.put(s.match(), c);
    return sf;
  }

  /**
   * The assigned path for this index when it joins the two interfaces' switches; otherwise (the
   * interfaces sit on other switches than the ones the selection used) the shortest path between
   * them.
   */
  private Path pathFor(Connection c, int pathIndex, HostInterface client, HostInterface server) {
    Path p = assignments.get(key(c.client, c.server)).path(pathIndex);
    if (p.source() == client.attachment().index()
        && p.destination() == server.attachment().index()) {
      return p;
    }
    return paths.requireBetween(client.attachment(), server.attachment()).get(0);
  }

  private Assignment assignment(Host client, Host server) {
    Assignment a = assignments.get(key(client, server));
    if (a != null) {
      return a;
    }
    Selection sel = select(client, server);
    a = new Assignment(client, server, sel, new ArrayList<>(sel.paths()), 0);
    assignments.put(key(client, server), a);
    a.distinctPaths().forEach(p -> users.merge(p, 1, Integer::sum));
    return a;
  }

  private Selection select(Host client, Host server) {
    return select(client, server, links.snapshot());
  }

  private Selection select(Host client, Host server, LinkState state) {
    List<Path> candidates = paths.requireBetween(client.firstHop(), server.firstHop());
    if (selector instanceof StatefulSelector s) {
      s.clock((System.nanoTime() - startNanos) / 1e9);
    }
    SelectionProblem problem =
        new SelectionProblem(
            client.name(),
            server.name(),
            client.interfaces().size(),
            candidates,
            state,
            p -> users.getOrDefault(p, 0),
            config.selection(),
            ++selections);
    return selector.select(problem);
  }

  /**
   * A link went down or came up. Down: every client whose assigned paths use it is selected again
   * (its own paths released first). Paths that avoid the link stay at their index, so their
   * subflows are untouched; each index whose path used the link takes the next path of the new
   * selection that the client does not already use, else the selection's best path (shared), and
   * none only when the server became unreachable. The subflows on those indices move to their new
   * path (new cookie generation), or lose their rules and end.
   */
  public synchronized FlowPlan linkChanged(int link, boolean up) {
    paths.setLinkUp(link, up);
    if (up) {
      return FlowPlan.EMPTY;
    }
    FlowPlan plan = FlowPlan.EMPTY;
    for (Map.Entry<String, Assignment> e : new ArrayList<>(assignments.entrySet())) {
      Assignment a = e.getValue();
      if (a.distinctPaths().stream().noneMatch(p -> p.uses(link))) {
        continue;
      }
      a.distinctPaths().forEach(p -> users.merge(p, -1, Integer::sum));
      // QoMRA re-admits an admitted flow by its reservations only: port counters cannot tell
      // the flow's own elastic traffic, which fills its paths, from anybody else's.
      LinkState state = links.snapshot();
      if (selector instanceof StatefulSelector) {
        state = state.withLoads(new double[state.size()]);
      }
      Selection sel;
      try {
        sel = select(a.client(), a.server(), state);
      } catch (org.mpqoe.core.topology.TopologyException unreachable) {
        sel = Selection.none(config.algorithm(), a.client().name());
      }
      List<Path> next = new ArrayList<>(a.paths());
      java.util.Deque<Path> spare = new java.util.ArrayDeque<>();
      for (Path p : sel.paths()) {
        if (!next.contains(p)) {
          spare.add(p);
        }
      }
      for (int i = 0; i < next.size(); i++) {
        if (next.get(i) != null && next.get(i).uses(link)) {
          // No unused path left: share the best one rather than drop the subflow.
          Path fallback = sel.isEmpty() ? null : sel.paths().get(0);
          next.set(i, spare.isEmpty() ? fallback : spare.poll());
        }
      }
      if (selector instanceof StatefulSelector s) {
        // Admission books exactly what the subflows will use; what does not fit gets no rules.
        next = new ArrayList<>(s.rebook(flow(a.client(), a.server()), next, state));
      }
      Assignment moved = new Assignment(a.client(), a.server(), sel, next, a.connections());
      assignments.put(e.getKey(), moved);
      moved.distinctPaths().forEach(p -> users.merge(p, 1, Integer::sum));
      for (Connection c : new ArrayList<>(connections.values())) {
        if (c.client.equals(a.client()) && c.server.equals(a.server())) {
          plan = plan.then(move(c, moved));
          endIfEmpty(c);
        }
      }
    }
    return plan;
  }

  /** Moves the subflows of {@code c} whose path is no longer the one of their index. */
  private FlowPlan move(Connection c, Assignment a) {
    List<FlowPlan.Removal> removals = new ArrayList<>();
    List<FlowRule> installs = new ArrayList<>();
    for (int i = c.subflows.size() - 1; i >= 0; i--) {
      Connection.Subflow old = c.subflows.get(i);
      Path assigned = a.path(old.pathIndex());
      if (old.path().equals(assigned)) {
        continue;
      }
      removals.add(new FlowPlan.Removal(0, old.cookie(), Cookies.EXACT));
      if (assigned == null) {
        c.subflows.remove(i);
        bySubflow.remove(old.toServer());
        continue;
      }
      HostInterface client = c.client.interfaces().get(old.clientInterface());
      HostInterface server = c.server.interfaces().get(old.serverInterface());
      Path path = pathFor(c, old.pathIndex(), client, server);
      long cookie =
          Cookies.of(Cookies.SUBFLOW, c.id, Cookies.generation(old.cookie()) + 1, old.index());
      List<FlowRule> rules =
          subflowRules.build(old.toServer(), client, server, path, config, cookie, false);
      installs.addAll(rules);
      c.subflows.set(
          i,
          new Connection.Subflow(
              old.index(),
              old.toServer(),
              old.clientInterface(),
              old.serverInterface(),
              old.pathIndex(),
              path,
              cookie,
              old.matchedBy(),
              rules));
    }
    return new FlowPlan(removals, installs, List.of(), null);
  }

  /**
   * A rule of ours was removed by the switch. The first removal of a subflow's current rules (its
   * idle timeout) ends the subflow; a connection without subflows ends, and a client without
   * connections gives its paths back.
   */
  public synchronized void flowRemoved(long cookie) {
    if (!Cookies.isOurs(cookie) || Cookies.kind(cookie) != Cookies.SUBFLOW) {
      return;
    }
    Connection c = connections.get(Cookies.connection(cookie));
    if (c == null) {
      return;
    }
    Connection.Subflow ended =
        c.subflows.stream().filter(sf -> sf.cookie() == cookie).findFirst().orElse(null);
    if (ended == null) {
      return;
    }
    c.subflows.remove(ended);
    bySubflow.remove(ended.toServer());
    endIfEmpty(c);
    releaseIfUnused(c.client, c.server, ended.pathIndex());
  }

  /**
   * QoMRA: when no live subflow of the client's connections uses path index i any more, its
   * reservation is given back and the index loses its path (a later join on it gets no rules), so
   * that other clients can be admitted on that capacity. Other algorithms reserve nothing and keep
   * the path.
   */
  private void releaseIfUnused(Host client, Host server, int pathIndex) {
    Assignment a = assignments.get(key(client, server));
    if (a == null || a.path(pathIndex) == null) {
      return;
    }
    for (Connection other : connections.values()) {
      if (other.client.equals(client) && other.server.equals(server)) {
        for (Connection.Subflow sf : other.subflows) {
          if (sf.pathIndex() == pathIndex) {
            return;
          }
        }
      }
    }
    Path p = a.path(pathIndex);
    if (!qomraBooks.release(flow(client, server), p)) {
      return;
    }
    List<Path> next = new ArrayList<>(a.paths());
    next.set(pathIndex, null);
    if (!next.contains(p)) {
      users.merge(p, -1, Integer::sum);
    }
    assignments.put(
        key(client, server),
        new Assignment(a.client(), a.server(), a.selection(), next, a.connections()));
  }

  /** Ends a connection that has no subflow left; a client without connections frees its paths. */
  private void endIfEmpty(Connection c) {
    if (!c.subflows.isEmpty()) {
      return;
    }
    connections.remove(c.id);
    if (c.serverToken != null) {
      byToken.remove(c.serverToken, c);
    }
    String k = key(c.client, c.server);
    Assignment a = assignments.get(k);
    if (a != null) {
      if (a.connections() <= 1) {
        assignments.remove(k);
        a.distinctPaths().forEach(p -> users.merge(p, -1, Integer::sum));
        qomraBooks.release(flow(c.client, c.server));
      } else {
        assignments.put(k, withConnections(a, a.connections() - 1));
      }
    }
  }

  /** True when this segment, in either direction, belongs to a subflow the controller routed. */
  public synchronized boolean isRouted(FlowMatch.Subflow segment) {
    return bySubflow.containsKey(segment) || bySubflow.containsKey(segment.reversed());
  }

  /** The current rules of every live subflow on one switch. */
  public synchronized List<FlowRule> rulesAt(long dpid) {
    List<FlowRule> rules = new ArrayList<>();
    for (Connection c : connections.values()) {
      for (Connection.Subflow sf : c.subflows) {
        sf.rules().stream().filter(r -> r.dpid() == dpid).forEach(rules::add);
      }
    }
    return rules;
  }

  public synchronized List<Connection> connections() {
    return List.copyOf(connections.values());
  }

  public synchronized List<Assignment> assignments() {
    return List.copyOf(assignments.values());
  }

  /** Users of a path (|H_p|) as the next selection will see them. */
  public synchronized int users(Path p) {
    return users.getOrDefault(p, 0);
  }

  private Connection latest(Host client, Host server) {
    Connection best = null;
    for (Connection c : connections.values()) {
      if (c.client.equals(client)
          && c.server.equals(server)
          && (best == null || c.createdNanos >= best.createdNanos)) {
        best = c;
      }
    }
    return best;
  }

  private Reaction resend(TcpSegment s, String why) {
    return new Reaction(
        Reaction.Kind.MPTCP, new FlowPlan(List.of(), List.of(), List.of(), packetOut(s)), why);
  }

  private static FlowPlan.PacketOut packetOut(TcpSegment s) {
    return new FlowPlan.PacketOut(
        s.dpid(), s.inPort(), s.frame(), List.of(new FlowAction.Output(FlowAction.PORT_TABLE)));
  }

  private static Assignment withConnections(Assignment a, int n) {
    return new Assignment(a.client(), a.server(), a.selection(), a.paths(), n);
  }

  /** QoMRA's admission, connection store and criticality (empty unless QoMRA selected). */
  public QomraBooks qomraBooks() {
    return qomraBooks;
  }

  /** The segment label list of a path (what segment routing pushes at the ingress). */
  public List<Integer> labels(Path p) {
    return segmentRouting.labels(p);
  }

  /**
   * Rules the client's assigned paths cost with one subflow per path, per-hop or with segment
   * routing (label rules, shared by every client, not counted).
   */
  public synchronized int rulesFor(Assignment a, boolean withSegmentRouting) {
    ControlConfig c = config.withRouting(config.maxHops(), withSegmentRouting);
    HostInterface server = a.server().interfaces().get(0);
    int rules = 0;
    for (int i = 0; i < a.paths().size(); i++) {
      Path p = a.paths().get(i);
      if (p != null) {
        HostInterface client =
            a.client().interfaces().get(Math.min(i, a.client().interfaces().size() - 1));
        FlowMatch.Subflow m =
            new FlowMatch.Subflow(
                Addresses.parseIpv4(client.ip()), Addresses.parseIpv4(server.ip()), 1, 1);
        rules += subflowRules.build(m, client, server, p, c, 0, false).size();
      }
    }
    return rules;
  }

  private static String flow(Host client, Host server) {
    return SelectionProblem.flowKey(client.name(), server.name());
  }

  private static String key(Host client, Host server) {
    return client.name() + "\u0000" + server.name();
  }
}
