package org.mpqoe.core.control;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.BooleanSupplier;
import java.util.function.IntPredicate;
import java.util.function.Predicate;
import org.mpqoe.core.path.LinkState;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.select.ClientAssignments.Assignment;
import org.mpqoe.core.select.Selection;
import org.mpqoe.core.topology.Host;
import org.mpqoe.core.topology.HostInterface;
import org.mpqoe.core.topology.TopologyException;

/**
 * Re-selection when a link goes down. Every client whose assigned paths use it is selected again,
 * with its own paths taken out of |H_p|, outside the router's lock and under the client's own lock
 * (as a SYN's selection). Paths that avoid the link stay at their index, so their subflows are
 * untouched; each index (interface) whose path used the link takes the next path of the new
 * selection that starts at its interface's switch and that the client does not already use, else
 * the fastest such path of the selection (shared); when the selection has none from its switch (the
 * selector chose fewer paths), the hop-shortest path from its switch, which is not a selected path
 * (the subflow lives on, as it would under plain forwarding); and none only when its switch can no
 * longer reach the server. For a client on one switch that is: the next unused path of the
 * selection, else its best path. The subflows on those indices move to their new path (new cookie
 * generation), or lose their rules and end.
 */
final class LinkFailover {
  private final RouterState r;
  private final LinkStateTracker links;

  LinkFailover(RouterState router, LinkStateTracker links) {
    this.r = router;
    this.links = links;
  }

  FlowPlan linkChanged(int link, boolean up) {
    return changed(link, () -> up);
  }

  /**
   * A port of {@code link} went up or down: the link is up while both of its ports are ({@link
   * LinkStateTracker#portChanged}), decided under the router's lock with the marking, so that one
   * end's late "up" cannot overtake the other end's "down".
   */
  FlowPlan portChanged(int link, long dpid, int port, boolean up) {
    return changed(link, () -> links.portChanged(dpid, port, up));
  }

  private FlowPlan changed(int link, BooleanSupplier linkUp) {
    List<Assignment> affected;
    synchronized (r.lock) {
      boolean up = linkUp.getAsBoolean();
      // Marked under the lock, so a selection recorded later sees the link down (Handshakes).
      r.paths().setLinkUp(link, up);
      if (up) {
        return FlowPlan.EMPTY;
      }
      affected = r.assignments.all().stream().filter(a -> a.uses(link)).toList();
    }
    FlowPlan plan = FlowPlan.EMPTY;
    for (Assignment stale : affected) {
      plan =
          plan.then(
              reselect(
                  stale.client(),
                  stale.server(),
                  a -> a.uses(link),
                  (a, i) -> a.path(i) != null && a.path(i).uses(link)));
    }
    return plan.then(moveUnselected(link));
  }

  /**
   * Subflows still on the link once the selections moved theirs: those on a path that no selection
   * chose ({@link SubflowRules#pathFor}: an interface without a selected path, or a join to another
   * server address, runs on the shortest path between its switches). Each moves to the shortest
   * path between its switches that avoids the down links, or loses its rules when there is none.
   */
  private FlowPlan moveUnselected(int link) {
    List<FlowPlan.Removal> removals = new ArrayList<>();
    List<FlowRule> installs = new ArrayList<>();
    synchronized (r.lock) {
      for (Connection c : r.table.snapshot()) {
        Connection next = c;
        for (Connection.Subflow old : c.subflows()) {
          if (old.path() == null || !old.path().uses(link)) {
            continue;
          }
          removals.add(new FlowPlan.Removal(0, old.cookie(), Cookies.EXACT));
          HostInterface client = c.client().interfaces().get(old.clientInterface());
          HostInterface server = c.server().interfaces().get(old.serverInterface());
          Path path = shortest(client, server);
          next = reroute(next, c, old, client, server, path, installs);
        }
        if (next != c) {
          r.update(next);
        }
      }
    }
    return new FlowPlan(removals, installs, List.of(), null);
  }

  /**
   * {@code next} with subflow {@code old} of {@code c}, between {@code client} and {@code server},
   * on {@code path} (its rules, a new cookie generation, added to {@code installs}), or without
   * rules when {@code path} is null.
   */
  private Connection reroute(
      Connection next,
      Connection c,
      Connection.Subflow old,
      HostInterface client,
      HostInterface server,
      Path path,
      List<FlowRule> installs) {
    if (path == null) {
      return next.replacing(old, null);
    }
    long cookie =
        Cookies.of(Cookies.SUBFLOW, c.id(), Cookies.generation(old.cookie()) + 1, old.index());
    List<FlowRule> rules =
        r.net()
            .subflowRules()
            .build(old.toServer(), client, server, path, r.config(), cookie, old.copiesSynAck());
    installs.addAll(rules);
    return next.replacing(old, old.withRoute(path, cookie, rules));
  }

  /**
   * After the topology was replaced ({@link TopologySwap}): the indices in {@code lost} had paths
   * that lost a link (now null) and take paths of a new selection; subflows whose path is null
   * (their path lost a link, or it was derived from one) move to their index's path. Without lost
   * indices no selection runs.
   */
  FlowPlan repair(Host client, Host server, Set<Integer> lost) {
    if (lost.isEmpty()) {
      synchronized (r.lock) {
        Assignment a = r.assignments.get(client, server);
        FlowPlan plan = FlowPlan.EMPTY;
        if (a != null) {
          for (Connection c : r.table.between(a.client(), a.server())) {
            plan = plan.then(move(c, a));
          }
        }
        return plan;
      }
    }
    return reselect(client, server, a -> true, (a, i) -> lost.contains(i) && a.path(i) == null);
  }

  /**
   * Selects again for a client while {@code affected} holds for its assignment, and gives the
   * indices that are {@code stale} paths of the new selection.
   */
  private FlowPlan reselect(
      Host client,
      Host server,
      Predicate<Assignment> affected,
      BiPredicate<Assignment, Integer> stale) {
    synchronized (r.selection.clientLock(client, server)) {
      LinkState state = links.snapshot();
      if (r.selection.stateful()) {
        // QoMRA re-admits an admitted flow by its reservations only: port counters cannot tell
        // the flow's own elastic traffic, which fills its paths, from anybody else's.
        state = state.withLoads(new double[state.size()]);
      }
      Map<Path, Integer> users;
      synchronized (r.lock) {
        Assignment a = r.assignments.get(client, server);
        if (a == null || !affected.test(a)) {
          return FlowPlan.EMPTY;
        }
        users = r.assignments.usersExcept(client, server);
      }
      Selection sel;
      try {
        sel = r.selection.select(client, server, serverInterface(client, server), state, users);
      } catch (TopologyException unreachable) {
        sel = Selection.none(r.config().algorithm(), client.name());
      }
      synchronized (r.lock) {
        Assignment a = r.assignments.get(client, server);
        if (a == null) {
          return FlowPlan.EMPTY; // its connections ended meanwhile
        }
        List<Path> next = replaced(a, sel, i -> stale.test(a, i));
        // Admission books exactly what the subflows will use; what does not fit gets no rules.
        next = r.selection.rebook(client, server, next, state);
        Assignment moved = r.assignments.put(a.withPaths(sel, next));
        FlowPlan plan = FlowPlan.EMPTY;
        for (Connection c : r.table.between(moved.client(), moved.server())) {
          plan = plan.then(move(c, moved));
        }
        return plan;
      }
    }
  }

  /**
   * The server interface the client's assignment leads to (under the client's lock, so it does not
   * change meanwhile); the server's first when the assignment is gone or the server lost it.
   */
  private int serverInterface(Host client, Host server) {
    synchronized (r.lock) {
      Assignment a = r.assignments.get(client, server);
      return a == null || a.serverInterface() >= server.interfaces().size()
          ? 0
          : a.serverInterface();
    }
  }

  /** The paths with each {@code stale} index's replaced from {@code sel}. */
  private List<Path> replaced(Assignment a, Selection sel, IntPredicate stale) {
    List<Path> next = new ArrayList<>(a.paths());
    Deque<Path> spare = new ArrayDeque<>();
    for (Path p : sel.paths()) {
      if (!next.contains(p)) {
        spare.add(p);
      }
    }
    List<HostInterface> interfaces = a.client().interfaces();
    for (int i = 0; i < next.size(); i++) {
      if (stale.test(i)) {
        int at = interfaces.get(Math.min(i, interfaces.size() - 1)).attachment().index();
        // No unused path from its switch left: share the best one rather than drop the subflow.
        Path fallback = sel.paths().stream().filter(p -> p.source() == at).findFirst().orElse(null);
        Path own = spare.stream().filter(p -> p.source() == at).findFirst().orElse(null);
        spare.remove(own);
        if (own == null && fallback == null && !sel.isEmpty()) {
          fallback = shortestFrom(interfaces.get(Math.min(i, interfaces.size() - 1)), a);
        }
        next.set(i, own == null ? fallback : own);
      }
    }
    return next;
  }

  /**
   * The hop-shortest path with every link up from {@code client}'s switch to the switch of the
   * server interface of {@code a}, or null when there is none.
   */
  private Path shortestFrom(HostInterface client, Assignment a) {
    List<HostInterface> server = a.server().interfaces();
    return shortest(client, server.get(Math.min(a.serverInterface(), server.size() - 1)));
  }

  /** The hop-shortest path with every link up between two interfaces' switches, or null. */
  private Path shortest(HostInterface from, HostInterface to) {
    return r.paths().shortest(from.attachment(), to.attachment()).orElse(null);
  }

  /**
   * Moves the subflows of {@code c} whose path is no longer the one of their index (or is null:
   * lost with a replaced topology).
   */
  private FlowPlan move(Connection c, Assignment a) {
    List<FlowPlan.Removal> removals = new ArrayList<>();
    List<FlowRule> installs = new ArrayList<>();
    Connection next = c;
    for (Connection.Subflow old : c.subflows()) {
      Path assigned = a.path(old.pathIndex());
      if (old.path() != null && old.path().equals(assigned)) {
        continue;
      }
      HostInterface client = c.client().interfaces().get(old.clientInterface());
      HostInterface server = c.server().interfaces().get(old.serverInterface());
      Path path;
      try {
        path = assigned == null ? null : SubflowRules.pathFor(assigned, client, server, r.paths());
      } catch (TopologyException unreachable) {
        path = null; // its switches are no longer joined
      }
      if (path != null && path.equals(old.path())) {
        continue; // an unselected path that stays the same: nothing to move
      }
      removals.add(new FlowPlan.Removal(0, old.cookie(), Cookies.EXACT));
      next = reroute(next, c, old, client, server, path, installs);
    }
    r.update(next);
    return new FlowPlan(removals, installs, List.of(), null);
  }
}
