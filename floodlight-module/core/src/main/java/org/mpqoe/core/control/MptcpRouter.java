package org.mpqoe.core.control;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import org.mpqoe.core.mptcp.MptcpHandshake;
import org.mpqoe.core.packet.Addresses;
import org.mpqoe.core.path.CandidatePaths;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.select.ClientAssignments;
import org.mpqoe.core.select.QomraBooks;
import org.mpqoe.core.topology.Host;
import org.mpqoe.core.topology.HostInterface;
import org.mpqoe.core.topology.Topology;

/**
 * Reactive MPTCP subflow routing, as the GA paper's controller does it, put together from one part
 * per concern: {@link Handshakes} (what an MP_CAPABLE SYN, the server's first segment and an
 * MP_JOIN SYN do), {@link PathSelection} (the selector, run outside the router's lock, once at a
 * time per client), {@link ClientAssignments} (the clients' paths and |H_p|), {@link
 * ConnectionTable} (live connections, published as immutable snapshots), {@link LinkFailover}
 * (re-selection when a link goes down) and the expiry of subflows here.
 *
 * <p>Thread-safe. One lock guards assignments and connections together and is held only for
 * bookkeeping and rule building (microseconds); readers of {@link #connections} take no lock.
 */
public final class MptcpRouter {
  /** The network state, the lock and the books the router's parts share. */
  final RouterState state;

  final LinkStateTracker links;
  private final ControlStats stats;
  private final Handshakes handshakes;
  private final LinkFailover failover;
  private final TopologySwap swap;

  /**
   * @param firstConnectionId the first connection id handed out (1; tests start near the wrap)
   */
  MptcpRouter(
      Network net,
      LinkStateTracker links,
      ControlConfig config,
      ControlStats stats,
      int firstConnectionId) {
    this.state = new RouterState(net, config, stats, firstConnectionId);
    this.links = links;
    this.stats = stats;
    this.handshakes = new Handshakes(state, links, stats);
    this.failover = new LinkFailover(state, links);
    this.swap = new TopologySwap(state, links, failover);
  }

  /** A router of its own (tests): own segment routing and statistics. */
  public MptcpRouter(
      Topology topology,
      HostDirectory hosts,
      CandidatePaths paths,
      LinkStateTracker links,
      ControlConfig config) {
    this(network(topology, hosts, paths), links, config, new ControlStats(), 1);
  }

  private static Network network(Topology topology, HostDirectory hosts, CandidatePaths paths) {
    SegmentRouting sr = new SegmentRouting(topology);
    return new Network(topology, hosts, paths, sr, new SubflowRules(topology, sr));
  }

  /** The network state as now; read it once and work on that value. */
  Network net() {
    return state.net();
  }

  /** The current candidate paths (and links marked down). */
  CandidatePaths paths() {
    return state.paths();
  }

  /**
   * The topology changed: live state moves to {@code next} ({@link TopologySwap}); returns the plan
   * that repairs the switches' rules. With {@code rebuildAllRules} (segment routing: labels follow
   * indices) every live subflow gets new rules.
   */
  FlowPlan replaceNetwork(Network next, boolean rebuildAllRules) {
    return swap.replace(next, rebuildAllRules);
  }

  /**
   * New settings; existing assignments and rules stay, later selections use the new ones. QoMRA's
   * books (admission, connection store, criticality) belong to the router and survive a change.
   */
  public void configure(ControlConfig newConfig) {
    state.selection.configure(newConfig);
  }

  public ControlConfig config() {
    return state.config();
  }

  /**
   * With {@link ControlConfig#selectsEarly}: a packet-in from {@code srcIp} to {@code dstIp} starts
   * the selection of a client that has no paths to that server yet, on {@code executor} ({@link
   * Handshakes#selectEarly}). True when a selection was started.
   */
  public boolean selectEarly(int srcIp, int dstIp, ScheduledExecutorService executor) {
    return config().selectsEarly() && handshakes.selectEarly(srcIp, dstIp, executor);
  }

  /**
   * A classified TCP segment: the one place that decides by handshake step. Empty when the segment
   * is not MPTCP business (neither a handshake SYN nor a segment of a routed subflow).
   */
  public Optional<Reaction> handle(TcpSegment s) {
    MptcpHandshake h = s.signal();
    if (h instanceof MptcpHandshake.CapableSyn c) {
      return Optional.of(handshakes.capableSyn(s, c.version()));
    }
    if (h instanceof MptcpHandshake.JoinSyn j) {
      return Optional.of(handshakes.joinSyn(s, j));
    }
    return handshakes.routedSegment(s, h instanceof MptcpHandshake.CapableSynAck a ? a : null);
  }

  /**
   * A link went down or up; the subflows that used a link that went down move ({@link
   * LinkFailover}).
   */
  public FlowPlan linkChanged(int link, boolean up) {
    return failover.linkChanged(link, up);
  }

  /** A port of {@code link} went up or down; the link follows both of its ports. */
  public FlowPlan portChanged(int link, long dpid, int port, boolean up) {
    return failover.portChanged(link, dpid, port, up);
  }

  /**
   * A rule of ours was removed by the switch. The first removal of a subflow's current rules (its
   * idle timeout) ends the subflow; a connection without subflows ends, and a client without
   * connections gives its paths back.
   */
  public void flowRemoved(long cookie) {
    if (!Cookies.isOurs(cookie) || Cookies.kind(cookie) != Cookies.SUBFLOW) {
      return;
    }
    synchronized (state.lock) {
      Connection c = state.table.byId(Cookies.connection(cookie));
      if (c == null) {
        return;
      }
      Connection.Subflow ended =
          c.subflows().stream().filter(sf -> sf.cookie() == cookie).findFirst().orElse(null);
      if (ended == null) {
        return;
      }
      state.update(c.replacing(ended, null));
      releaseIfUnused(c.client(), c.server(), ended.pathIndex());
    }
  }

  /**
   * QoMRA: when no live subflow of the client's connections uses path index i any more, its
   * reservation is given back and the index loses its path (a later join on it gets no rules), so
   * that other clients can be admitted on that capacity. Other algorithms reserve nothing and keep
   * the path.
   */
  private void releaseIfUnused(Host client, Host server, int pathIndex) {
    ClientAssignments.Assignment a = state.assignments.get(client, server);
    if (a == null || a.path(pathIndex) == null) {
      return;
    }
    for (Connection other : state.table.between(client, server)) {
      if (other.subflows().stream().anyMatch(sf -> sf.pathIndex() == pathIndex)) {
        return;
      }
    }
    if (!state.selection.subflowEnded(client, server, a.path(pathIndex))) {
      return;
    }
    List<Path> next = new ArrayList<>(a.paths());
    next.set(pathIndex, null);
    state.assignments.put(a.withPaths(a.selection(), next));
  }

  /** The current rules of every live subflow on one switch. */
  public List<FlowRule> rulesAt(long dpid) {
    List<FlowRule> rules = new ArrayList<>();
    for (Connection c : state.table.snapshot()) {
      for (Connection.Subflow sf : c.subflows()) {
        sf.rules().stream().filter(r -> r.dpid() == dpid).forEach(rules::add);
      }
    }
    return rules;
  }

  /** The live connections as last published: immutable, no lock taken. */
  public List<Connection> connections() {
    return state.table.snapshot();
  }

  public List<ClientAssignments.Assignment> assignments() {
    synchronized (state.lock) {
      return state.assignments.all();
    }
  }

  /** Users of a path (|H_p|) as the next selection will see them. */
  public int users(Path p) {
    synchronized (state.lock) {
      return state.assignments.users(p);
    }
  }

  /** The control plane's counters and timings. */
  public ControlStats stats() {
    return stats;
  }

  /** QoMRA's admission, connection store and criticality (empty unless QoMRA selected). */
  public QomraBooks qomraBooks() {
    return state.selection.books();
  }

  /** The segment label list of a path (what segment routing pushes at the ingress). */
  public List<Integer> labels(Path p) {
    return state.net().segmentRouting().labels(p);
  }

  /**
   * Rules the client's assigned paths cost with one subflow per path, per-hop or with segment
   * routing (label rules, shared by every client, not counted).
   */
  public int rulesFor(ClientAssignments.Assignment a, boolean withSegmentRouting) {
    ControlConfig config = config();
    ControlConfig c = config.withRouting(config.maxHops(), withSegmentRouting);
    HostInterface server =
        a.server()
            .interfaces()
            .get(Math.min(a.serverInterface(), a.server().interfaces().size() - 1));
    int rules = 0;
    for (int i = 0; i < a.paths().size(); i++) {
      Path p = a.paths().get(i);
      if (p != null) {
        HostInterface client =
            a.client().interfaces().get(Math.min(i, a.client().interfaces().size() - 1));
        // A stand-in direction: the count does not depend on addresses and ports.
        FlowMatch.Subflow m =
            new FlowMatch.Subflow(
                Addresses.parseIpv4(client.ip()), Addresses.parseIpv4(server.ip()), 1, 1);
        rules += state.net().subflowRules().build(m, client, server, p, c, 0, false).size();
      }
    }
    return rules;
  }
}
