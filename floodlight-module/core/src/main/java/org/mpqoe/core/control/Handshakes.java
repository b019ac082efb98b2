package org.mpqoe.core.control;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.mpqoe.core.mptcp.MptcpHandshake;
import org.mpqoe.core.mptcp.Tokens;
import org.mpqoe.core.packet.Addresses;
import org.mpqoe.core.path.LinkState;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.select.ClientAssignments.Assignment;
import org.mpqoe.core.select.Selection;
import org.mpqoe.core.select.SelectionProblem;
import org.mpqoe.core.topology.Host;

/**
 * What each handshake step does to the router's books and which rules it costs.
 *
 * <ul>
 *   <li>An MP_CAPABLE SYN at the client's first-hop switch opens a connection. A client without an
 *       assignment gets one first: the selector runs outside the router's lock, under the client's
 *       own lock, so other clients' packet-ins go on and a second SYN of the same client waits for
 *       this assignment instead of selecting again. The selection is made towards the server
 *       interface the SYN targets, from every switch the client has interfaces at ({@link
 *       PathSelection#select}). Subflow 1 gets the rules of the path of the interface the SYN came
 *       from (of the first interface with a path when that one has none) in both directions and, at
 *       the server edge, a rule that copies the server's SYN/ACK to the controller while forwarding
 *       it ({@link SubflowRules}).
 *   <li>The copy of the server's SYN/ACK gives the server's key, hence the token later MP_JOINs
 *       carry. Nothing is sent on: the switch forwarded the SYN/ACK itself. A server that answers
 *       without MP_CAPABLE gives no key (the connection fell back to TCP).
 *   <li>An MP_JOIN SYN is tied to its connection by the token (or, when no key was seen, to the
 *       newest connection between the two hosts: a join can overtake the copy of the SYN/ACK) and
 *       its subflow gets the path of the interface it comes from (the client's i-th interface: the
 *       assignment's i-th path) without selecting again; with no path for that interface it gets no
 *       rules and cannot be established.
 * </ul>
 *
 * <p>A subflow whose interfaces are not the ends of its path (a join to another server address than
 * the one selected for, announced with ADD_ADDR; or an MP_CAPABLE from an interface without a path)
 * runs on the shortest path between its two attachments ({@link SubflowRules#pathFor}), and its log
 * line says that this is not a selected path.
 *
 * <p>Changes while a selection runs: the selection works on the link state and |H_p| of its start.
 * Other clients' joins and ends in the meantime are not waited for (each selection sees the
 * assignments recorded before it started, as if it had run first). A link that goes down during a
 * selection is not accepted: if a selected path crosses a link that is down when the answer is
 * recorded, the client is selected again; the link-down handling, which holds the router's lock
 * while it marks the link, then sees either the recorded assignment (and moves it) or nothing.
 *
 * <p>Each step reads the router's {@link Network} once and works on it. When the topology was
 * replaced before the step records (under the router's lock), the SYN is dropped instead: its
 * retransmission is handled on the new topology (rebuilds are rare, a second's delay for one SYN).
 */
final class Handshakes {
  /** Selections of one client redone because a link went down meanwhile, at most. */
  private static final int RESELECTIONS = 5;

  private final RouterState r;
  private final LinkStateTracker links;
  private final ControlStats stats;

  /** Client-server pairs whose early selection is queued or running (under the router's lock). */
  private final Set<String> early = new HashSet<>();

  Handshakes(RouterState router, LinkStateTracker links, ControlStats stats) {
    this.r = router;
    this.links = links;
    this.stats = stats;
  }

  Reaction capableSyn(TcpSegment s, int version) {
    Network n = r.net();
    var client = n.hosts().byIp(s.srcIp()).orElse(null);
    var server = n.hosts().byIp(s.dstIp()).orElse(null);
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
    synchronized (r.lock) {
      Reaction ready = openIfAssigned(n, s, version, client, server);
      if (ready != null) {
        return ready;
      }
    }
    return selectAndAssign(n, client, server, () -> openIfAssigned(n, s, version, client, server));
  }

  /**
   * Selects early ({@link ControlConfig#selectsEarly}): a packet-in from {@code srcIp} to {@code
   * dstIp}, client and server, that have no assignment yet gets one now, on {@code executor}, so
   * that the client's MP_CAPABLE SYN finds it ready (the SYN waits for a selection still running,
   * as a second SYN does). An early assignment that no connection used is dropped after the idle
   * timeout, so that it does not count in |H_p| for ever. False when nothing was started.
   */
  boolean selectEarly(int srcIp, int dstIp, ScheduledExecutorService executor) {
    Network n = r.net();
    var client = n.hosts().byIp(srcIp).orElse(null);
    var server = n.hosts().byIp(dstIp).orElse(null);
    if (client == null
        || server == null
        || client.host().role() != Host.Role.CLIENT
        || server.host().role() != Host.Role.SERVER) {
      return false;
    }
    Host ch = client.host();
    Host sh = server.host();
    synchronized (r.lock) {
      if (r.assignments.get(ch, sh) != null
          || !early.add(SelectionProblem.flowKey(ch.name(), sh.name()))) {
        return false;
      }
    }
    executor.execute(
        () -> {
          try {
            selectAndAssign(
                n, client, server, () -> r.assignments.get(ch, sh) != null ? ASSIGNED : null);
            Assignment made;
            synchronized (r.lock) {
              made = r.assignments.get(ch, sh);
            }
            if (made != null) {
              executor.schedule(
                  () -> dropUnused(ch, sh, made), r.config().idleTimeoutS(), TimeUnit.SECONDS);
            }
          } finally {
            synchronized (r.lock) {
              early.remove(SelectionProblem.flowKey(ch.name(), sh.name()));
            }
          }
        });
    return true;
  }

  /** The early assignment {@code made}, if no connection took it up meanwhile. */
  private void dropUnused(Host ch, Host sh, Assignment made) {
    synchronized (r.lock) {
      if (r.assignments.get(ch, sh) == made && made.connections() == 0) {
        r.assignments.remove(ch, sh);
        r.selection.flowEnded(ch, sh);
      }
    }
  }

  /**
   * What {@link #selectAndAssign} ends with when an early selection found or made the assignment.
   */
  private static final Reaction ASSIGNED = Reaction.ignored("assigned");

  /**
   * Under the client's own lock, outside the router's: selects for the pair and records the
   * assignment, then answers {@code ready} (under the router's lock). {@code ready} is asked first,
   * before each selection: a non-null answer (an assignment another thread recorded meanwhile) ends
   * the loop. A selection whose paths cross a link that went down meanwhile is made again.
   */
  private Reaction selectAndAssign(
      Network n,
      HostDirectory.Attachment client,
      HostDirectory.Attachment server,
      Supplier<Reaction> ready) {
    Host ch = client.host();
    Host sh = server.host();
    synchronized (r.selection.clientLock(ch, sh)) {
      for (int attempt = 0; ; attempt++) {
        LinkState state = links.snapshot();
        Map<Path, Integer> users;
        synchronized (r.lock) {
          Reaction done = ready.get();
          if (done != null) {
            return done;
          }
          users = r.assignments.usersExcept(ch, sh);
        }
        Selection sel = r.selection.select(ch, sh, server.index(), state, users);
        synchronized (r.lock) {
          if (r.net() != n) {
            return replaced("MP_CAPABLE");
          }
          if (crossesDownLink(sel)) {
            if (attempt < RESELECTIONS) {
              continue;
            }
            r.selection.flowEnded(ch, sh);
            return Reaction.dropped(
                "links kept going down while selecting for " + ch.name() + ": not routed");
          }
          if (sel.isEmpty() || sel.distinctPaths().isEmpty()) {
            // Not kept: the next SYN selects again (QoMRA may admit it once capacity frees).
            return Reaction.dropped(
                "no admissible path for " + ch.name() + ": connection not routed");
          }
          r.assignments.assign(ch, sh, server.index(), sel);
          return ready.get();
        }
      }
    }
  }

  private boolean crossesDownLink(Selection sel) {
    for (Path p : sel.distinctPaths()) {
      for (int l : p.links()) {
        if (!r.paths().isLinkUp(l)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Under the router's lock: a retransmitted SYN is held back ({@link #heldBack}); a client with an
   * assignment gets its connection; null when the client must be selected for first.
   */
  private Reaction openIfAssigned(
      Network n,
      TcpSegment s,
      int version,
      HostDirectory.Attachment client,
      HostDirectory.Attachment server) {
    if (r.net() != n) {
      return replaced("MP_CAPABLE");
    }
    Connection known = r.table.bySubflow(s.match());
    if (known != null) {
      return heldBack(known, "MP_CAPABLE");
    }
    Assignment a = r.assignments.get(client.host(), server.host());
    if (a == null) {
      return null;
    }
    if (a.distinctPaths().isEmpty()) {
      if (a.connections() == 0) {
        r.assignments.remove(client.host(), server.host());
      }
      return Reaction.dropped(
          "no admissible path for " + client.host().name() + ": connection not routed");
    }
    long start = System.nanoTime();
    Connection c = r.table.open(client.host(), server.host(), version, start);
    r.assignments.put(a.withConnections(a.connections() + 1));
    int pathIndex = a.path(client.index()) != null ? client.index() : a.firstPathIndex();
    Connection.Subflow sf =
        subflow(c, s, client, server, a, pathIndex, Connection.MatchedBy.HANDSHAKE, true);
    Reaction reaction =
        routed(
            c,
            sf,
            s,
            "connection "
                + c.id()
                + " (MPTCP v"
                + version
                + ") "
                + client.host().name()
                + " -> "
                + server.host().name()
                + ": subflow 1 from "
                + client.iface().ip()
                + " on "
                + sf.path().describe(n.topology())
                + notSelected(sf, a)
                + " ("
                + a.distinctPaths().size()
                + " path(s) assigned)");
    stats.time(ControlStats.Step.PLAN, System.nanoTime() - start);
    return reaction;
  }

  /**
   * A segment that is no handshake SYN, of a routed subflow: at the server edge, a copy of the
   * server's SYN/ACK (learn the key; the switch forwarded the segment itself); elsewhere one that
   * reached the controller through a table without the subflow's rules yet, sent on through the
   * table where a rule of ours for it exists, else dropped. Empty when no routed subflow has this
   * segment.
   */
  Optional<Reaction> routedSegment(TcpSegment s, MptcpHandshake.CapableSynAck key) {
    long start = System.nanoTime();
    FlowMatch.Subflow m = s.match();
    synchronized (r.lock) {
      Connection c = r.table.bySubflow(m);
      Connection.Subflow sf = c == null ? null : c.subflow(m);
      if (c == null) {
        c = r.table.bySubflow(m.reversed());
        sf = c == null ? null : c.subflow(m.reversed());
      }
      if (c == null) {
        return Optional.empty();
      }
      boolean copied =
          s.isSynAck()
              && sf.rules().stream()
                  .anyMatch(
                      x ->
                          x.dpid() == s.dpid()
                              && x.match() instanceof FlowMatch.SynAck a
                              && a.subflow().equals(m));
      if (copied) {
        Reaction reaction = synAckCopy(c, key);
        stats.time(ControlStats.Step.PLAN, System.nanoTime() - start);
        return Optional.of(reaction);
      }
      boolean ruleHere =
          sf.rules().stream().anyMatch(x -> x.dpid() == s.dpid() && x.match().equals(m));
      return Optional.of(
          ruleHere
              ? resend(s, "segment of connection " + c.id() + " sent on through the table")
              : Reaction.dropped(
                  "segment of connection " + c.id() + " at a switch without its rules"));
    }
  }

  /** Under the router's lock: the copy of a server's SYN/ACK; nothing to send. */
  private Reaction synAckCopy(Connection c, MptcpHandshake.CapableSynAck key) {
    String what;
    if (key == null) {
      what = "server answered without MPTCP (fallback to TCP)";
    } else {
      int token = Tokens.token(key.serverKey(), key.version());
      if (c.serverToken() == null || c.serverToken() != token) {
        r.table.put(c.withServerToken(token));
      }
      what = String.format("server key seen, token %08x", token);
    }
    return new Reaction(
        Reaction.Kind.MPTCP, FlowPlan.EMPTY, "connection " + c.id() + ": SYN/ACK copy, " + what);
  }

  Reaction joinSyn(TcpSegment s, MptcpHandshake.JoinSyn j) {
    Network n = r.net();
    var client = n.hosts().byIp(s.srcIp()).orElse(null);
    var server = n.hosts().byIp(s.dstIp()).orElse(null);
    if (client == null || server == null || client.host().role() != Host.Role.CLIENT) {
      return Reaction.ignored("MP_JOIN SYN between unknown hosts");
    }
    if (client.iface().attachment().dpid() != s.dpid()) {
      return Reaction.ignored("MP_JOIN SYN seen away from the client's first-hop switch");
    }
    long start = System.nanoTime();
    synchronized (r.lock) {
      if (r.net() != n) {
        return replaced("MP_JOIN");
      }
      Connection known = r.table.bySubflow(s.match());
      if (known != null) {
        return heldBack(known, "MP_JOIN");
      }
      Connection c = r.table.byToken(j.token());
      Connection.MatchedBy how = Connection.MatchedBy.TOKEN;
      if (c == null) {
        c = r.table.latest(client.host(), server.host());
        how = Connection.MatchedBy.HOST_IDENTITY;
      }
      if (c == null) {
        return Reaction.dropped(String.format("MP_JOIN SYN with unknown token %08x", j.token()));
      }
      Assignment a = r.assignments.get(c.client(), c.server());
      int pathIndex = client.index();
      if (a == null || a.path(pathIndex) == null) {
        return Reaction.dropped(
            "connection "
                + c.id()
                + ": no path "
                + (pathIndex + 1)
                + " for interface "
                + client.iface().ip()
                + ", subflow not established (matched by "
                + how
                + ")");
      }
      Connection.Subflow sf = subflow(c, s, client, server, a, pathIndex, how, false);
      Reaction reaction =
          routed(
              c,
              sf,
              s,
              "connection "
                  + c.id()
                  + ": subflow "
                  + (sf.index() + 1)
                  + " from "
                  + client.iface().ip()
                  + " on "
                  + sf.path().describe(n.topology())
                  + notSelected(sf, a)
                  + " (matched by "
                  + how
                  + ")");
      stats.time(ControlStats.Step.PLAN, System.nanoTime() - start);
      return reaction;
    }
  }

  /**
   * Under the router's lock: records {@code sf} in {@code c} and answers with its rules, then the
   * handshake segment {@code s} sent on through the table.
   */
  private Reaction routed(Connection c, Connection.Subflow sf, TcpSegment s, String log) {
    r.table.put(c.with(sf));
    return new Reaction(
        Reaction.Kind.MPTCP, new FlowPlan(List.of(), sf.rules(), List.of(), packetOut(s)), log);
  }

  /** A new subflow of {@code c} (index {@link Connection#nextSubflow}) with its rules. */
  private Connection.Subflow subflow(
      Connection c,
      TcpSegment s,
      HostDirectory.Attachment client,
      HostDirectory.Attachment server,
      Assignment a,
      int pathIndex,
      Connection.MatchedBy how,
      boolean copyServerSynAck) {
    Path path =
        SubflowRules.pathFor(a.path(pathIndex), client.iface(), server.iface(), r.net().paths());
    int index = c.nextSubflow();
    long cookie = Cookies.of(Cookies.SUBFLOW, c.id(), 0, index);
    List<FlowRule> rules =
        r.net()
            .subflowRules()
            .build(
                s.match(),
                client.iface(),
                server.iface(),
                path,
                r.config(),
                cookie,
                copyServerSynAck);
    return new Connection.Subflow(
        index, s.match(), client.index(), server.index(), pathIndex, path, cookie, how, rules);
  }

  /**
   * What a log line adds when a subflow does not run on its assigned path: its interfaces are not
   * the path's ends, so it took the shortest path between them.
   */
  static String notSelected(Connection.Subflow sf, Assignment a) {
    return sf.path().equals(a.path(sf.pathIndex()))
        ? ""
        : " (shortest path between its interfaces' switches, not a selected path)";
  }

  private static Reaction replaced(String what) {
    return Reaction.dropped(
        what + " SYN: topology replaced meanwhile, its retransmission is routed");
  }

  /**
   * A retransmission of a SYN whose subflow is routed: not sent on. It reaches the controller only
   * while the first-hop switch has no rule of that subflow yet ({@code PlanApplier} installs that
   * switch's rules last, right before it releases the original), i.e. while the original SYN is
   * held for its rules or was just released. Sent on, it would overtake the original; the server
   * would then take the retransmission first and meet the older original second, whose timestamp
   * fails PAWS (RFC 7323, section 5), so Linux answers it with a bare ACK from the request socket,
   * without MPTCP options, which makes the client fall back to TCP (docs/video-experiments.md).
   * Should the original be lost after its release, the client's next retransmission meets the
   * subflow's rule and does not come here.
   */
  private static Reaction heldBack(Connection c, String handshake) {
    return new Reaction(
        Reaction.Kind.MPTCP,
        FlowPlan.EMPTY,
        "retransmitted " + handshake + " SYN of connection " + c.id() + ": not sent on again");
  }

  private static Reaction resend(TcpSegment s, String why) {
    return new Reaction(
        Reaction.Kind.MPTCP, new FlowPlan(List.of(), List.of(), List.of(), packetOut(s)), why);
  }

  private static FlowPlan.PacketOut packetOut(TcpSegment s) {
    return new FlowPlan.PacketOut(
        s.dpid(), s.inPort(), s.frame(), List.of(new FlowAction.Output(FlowAction.PORT_TABLE)));
  }
}
