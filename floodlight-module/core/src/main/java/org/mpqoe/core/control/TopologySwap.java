package org.mpqoe.core.control;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.select.ClientAssignments.Assignment;
import org.mpqoe.core.select.Selection;
import org.mpqoe.core.select.SelectionProblem;
import org.mpqoe.core.topology.Host;
import org.mpqoe.core.topology.Link;
import org.mpqoe.core.topology.SwitchNode;
import org.mpqoe.core.topology.Topology;

/**
 * Moves the router's live state to a new {@link Network} when the topology is rebuilt at run time
 * (links discovered or lost, hosts seen). Links are identified across the two topologies by their
 * {@link Topology.LinkKey} (dpid and port of both ends), switches by dpid, hosts by name; indices
 * are only positions and are translated.
 *
 * <ol>
 *   <li>Under the router's lock, in one step: the new network is installed, links marked down stay
 *       down, port-rate samples and measured latencies carry over ({@link
 *       LinkStateTracker#rebind}), QoMRA's reservations move to the translated paths or are given
 *       back, every assignment and connection is rewritten with translated paths and the new
 *       topology's hosts. A path that lost a link (or a switch) becomes null. Connections of hosts
 *       that are gone end (their rules are deleted), and so do the assignments.
 *   <li>Outside the lock, one client at a time: indices that lost their path are given paths of a
 *       new selection on the new topology, exactly as after a link failure ({@link LinkFailover}),
 *       and the subflows on them move (new rules, new cookie generation; the old rules deleted).
 *       Subflows on paths that survived keep their rules: rules match ports, which did not change.
 * </ol>
 *
 * Links that appear change nothing for live connections; later selections see them. Between the two
 * steps a join on a lost index finds no path and is dropped (its retransmission is routed).
 * Rebuilds run one at a time.
 */
final class TopologySwap {
  private final RouterState r;
  private final LinkStateTracker links;
  private final LinkFailover failover;

  TopologySwap(RouterState router, LinkStateTracker links, LinkFailover failover) {
    this.r = router;
    this.links = links;
    this.failover = failover;
  }

  /** What a client lost: its hosts in the new topology and the path indices that lost a link. */
  private record Lost(Host client, Host server, Set<Integer> indices) {}

  /**
   * @param rebuildAll every subflow gets new rules, not only those whose path lost a link
   */
  synchronized FlowPlan replace(Network next, boolean rebuildAll) {
    FlowPlan plan = FlowPlan.EMPTY;
    Map<String, Lost> lost = new LinkedHashMap<>();
    synchronized (r.lock) {
      Network old = r.net();
      Translation t = new Translation(old.topology(), next.topology());
      for (int l = 0; l < old.topology().links().size(); l++) {
        int moved = t.link(l);
        if (moved >= 0 && !old.paths().isLinkUp(l)) {
          next.paths().setLinkUp(moved, false);
        }
      }
      links.rebind(next.topology());
      r.install(next);
      r.selection.translate(t::path);
      for (Assignment a : r.assignments.all()) {
        Host client = t.host(a.client());
        Host server = t.host(a.server());
        r.assignments.remove(a.client(), a.server());
        if (client == null || server == null) {
          r.selection.flowEnded(a.client(), a.server());
          continue;
        }
        List<Path> paths = new ArrayList<>();
        Set<Integer> gone = new TreeSet<>();
        for (int i = 0; i < a.paths().size(); i++) {
          Path p = a.paths().get(i);
          Path q = p == null ? null : t.path(p);
          if (p != null && q == null) {
            gone.add(i);
          }
          paths.add(q);
        }
        r.assignments.put(
            new Assignment(
                client,
                server,
                a.serverInterface(),
                t.selection(a.selection()),
                paths,
                a.connections()));
        if (!gone.isEmpty()) {
          lost.put(flow(client, server), new Lost(client, server, gone));
        }
      }
      for (Connection c : r.table.snapshot()) {
        Host client = t.host(c.client());
        Host server = t.host(c.server());
        if (client == null || server == null) {
          List<FlowPlan.Removal> removals = new ArrayList<>();
          c.subflows()
              .forEach(sf -> removals.add(new FlowPlan.Removal(0, sf.cookie(), Cookies.EXACT)));
          plan = plan.then(new FlowPlan(removals, List.of(), List.of(), null));
          r.table.remove(c);
          continue;
        }
        List<Connection.Subflow> subflows = new ArrayList<>();
        boolean pathless = false;
        for (Connection.Subflow sf : c.subflows()) {
          Path q = rebuildAll ? null : t.path(sf.path());
          pathless |= q == null;
          subflows.add(sf.withRoute(q, sf.cookie(), sf.rules()));
        }
        r.table.put(
            new Connection(
                c.id(),
                client,
                server,
                c.version(),
                c.createdNanos(),
                c.serverToken(),
                c.nextSubflow(),
                subflows));
        if (pathless) {
          lost.computeIfAbsent(flow(client, server), k -> new Lost(client, server, Set.of()));
        }
      }
    }
    for (Lost l : lost.values()) {
      plan = plan.then(failover.repair(l.client(), l.server(), l.indices()));
    }
    return plan;
  }

  private static String flow(Host client, Host server) {
    return SelectionProblem.flowKey(client.name(), server.name());
  }

  /** Indices of one topology in another: switches by dpid, links by key, hosts by name. */
  static final class Translation {
    private final int[] switches;
    private final int[] links;
    private final Map<String, Host> hosts = new HashMap<>();

    Translation(Topology from, Topology to) {
      switches = new int[from.switches().size()];
      for (SwitchNode s : from.switches()) {
        switches[s.index()] = to.switchWithDpid(s.dpid()).map(SwitchNode::index).orElse(-1);
      }
      links = new int[from.links().size()];
      for (Link l : from.links()) {
        links[l.index()] = to.indexOf(Topology.LinkKey.of(l));
      }
      to.hosts().forEach(h -> hosts.put(h.name(), h));
    }

    /** The new index of old link {@code l}, or -1 when it is gone. */
    int link(int l) {
      return links[l];
    }

    /** The same switches and links in the new topology, or null when one of them is gone. */
    Path path(Path p) {
      if (p == null) {
        return null;
      }
      int[] s = p.switches();
      int[] l = p.links();
      for (int i = 0; i < s.length; i++) {
        s[i] = switches[s[i]];
        if (s[i] < 0) {
          return null;
        }
      }
      for (int i = 0; i < l.length; i++) {
        l[i] = links[l[i]];
        if (l[i] < 0) {
          return null;
        }
      }
      return new Path(s, l);
    }

    /** The host of the same name in the new topology, or null when it is gone. */
    Host host(Host h) {
      return hosts.get(h.name());
    }

    /** A selection with its surviving paths only, each for the same interface as before. */
    Selection selection(Selection s) {
      if (s == null) {
        return null;
      }
      List<Path> paths = new ArrayList<>();
      List<Integer> interfaces = new ArrayList<>();
      for (int j = 0; j < s.paths().size(); j++) {
        Path q = path(s.paths().get(j));
        if (q != null) {
          paths.add(q);
          interfaces.add(s.interfaces().get(j));
        }
      }
      return new Selection(s.algorithm(), s.client(), paths, interfaces, s.score());
    }
  }
}
