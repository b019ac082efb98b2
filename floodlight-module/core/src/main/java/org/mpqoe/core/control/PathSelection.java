package org.mpqoe.core.control;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
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

/**
 * The configured path selector and how it is run: outside any lock that packet-ins share, and at
 * most once at a time per client and server ({@link #clientLock}). A selection works on what its
 * caller gave it (a link-state snapshot and a copy of |H_p|); what changes while it runs is handled
 * by the caller when it records the answer.
 *
 * <p>QoMRA's books live here for the controller's lifetime; its whole lifecycle (clock, subflow and
 * flow ends, rebooking after a link failure) goes through {@link StatefulSelector}. When another
 * algorithm is configured, ends are still reported to a QoMRA selector over the same books, so that
 * nothing it admitted earlier stays reserved.
 */
final class PathSelection {
  /** The settings and the selector built from them, swapped together. */
  private record Current(ControlConfig config, PathSelector selector, StatefulSelector books) {}

  private final Supplier<Network> net;
  private final QomraSelector.Context context;
  private final ControlStats stats;
  private final long startNanos = System.nanoTime();
  private final AtomicLong selections = new AtomicLong();
  private final Map<String, Object> clientLocks = new ConcurrentHashMap<>();
  private volatile Current current;

  /**
   * @param net the router's current network state: selections and QoMRA's link losses and labels
   *     follow it when the topology is replaced
   */
  PathSelection(Supplier<Network> net, ControlConfig config, ControlStats stats) {
    this.net = net;
    this.stats = stats;
    this.context =
        new QomraSelector.Context(
            new QomraBooks(),
            l -> net.get().topology().links().get(l).lossPct(),
            p -> net.get().segmentRouting().labels(p));
    configure(config);
  }

  /**
   * New settings; existing assignments and rules stay, later selections use the new ones. QoMRA's
   * books survive a change.
   */
  void configure(ControlConfig config) {
    PathSelector selector =
        Selectors.create(config.algorithm(), config.ga(), config.qomra(), context);
    StatefulSelector books =
        selector instanceof StatefulSelector s ? s : new QomraSelector(config.qomra(), context);
    current = new Current(config, selector, books);
  }

  /** Runs {@code selector} in place of the configured algorithm's (tests). */
  void use(PathSelector selector) {
    Current c = current;
    current = new Current(c.config(), selector, c.books());
  }

  ControlConfig config() {
    return current.config();
  }

  QomraBooks books() {
    return context.books();
  }

  /** True when the configured selector keeps books (QoMRA). */
  boolean stateful() {
    return current.selector() instanceof StatefulSelector;
  }

  /**
   * The lock that keeps a client's selections apart: held around select-and-record, so that a
   * second SYN of the same client waits for the first one's assignment instead of selecting again.
   * Never held by a thread that holds the router's lock.
   */
  Object clientLock(Host client, Host server) {
    return clientLocks.computeIfAbsent(
        SelectionProblem.flowKey(client.name(), server.name()), k -> new Object());
  }

  /**
   * Runs the selector for a client on the given state and users, towards the server's interface
   * {@code to} (the one whose address the MP_CAPABLE SYN targets): the candidates are the simple
   * paths from each of the client's interfaces' switches to that interface's switch, and the answer
   * gives each path its interface ({@link Selection}). Throws {@link
   * org.mpqoe.core.topology.TopologyException} when the server cannot be reached.
   */
  Selection select(Host client, Host server, int to, LinkState state, Map<Path, Integer> users) {
    Current c = current;
    long start = System.nanoTime();
    Network n = net.get();
    List<Path> candidates =
        n.paths().fromInterfaces(client, server.interfaces().get(to).attachment());
    if (c.config().segmentRouting()) {
      // Paths whose label stack the switches cannot push are no candidates.
      candidates = candidates.stream().filter(n.segmentRouting()::fits).toList();
    }
    if (c.selector() instanceof StatefulSelector s) {
      s.clock((start - startNanos) / 1e9);
    }
    SelectionProblem problem =
        new SelectionProblem(
            client.name(),
            server.name(),
            client.attachmentIndices(),
            candidates,
            state,
            p -> users.getOrDefault(p, 0),
            c.config().selection(),
            selections.incrementAndGet());
    Selection s = c.selector().select(problem);
    stats.time(ControlStats.Step.SELECTION, System.nanoTime() - start);
    return s;
  }

  /** One subflow on {@code path} ended; true when a reservation was given back. */
  boolean subflowEnded(Host client, Host server, Path path) {
    return current.books().subflowEnded(flow(client, server), path);
  }

  /** Every subflow of the client ended. */
  void flowEnded(Host client, Host server) {
    current.books().flowEnded(flow(client, server));
  }

  /**
   * QoMRA books exactly what the subflows will use after a link failure; what does not fit becomes
   * null. Other selectors keep the paths.
   */
  List<Path> rebook(Host client, Host server, List<Path> next, LinkState state) {
    return current.selector() instanceof StatefulSelector s
        ? s.rebook(flow(client, server), next, state)
        : next;
  }

  /**
   * The topology was replaced: QoMRA's reservations follow their paths ({@code translate} gives a
   * path's equivalent in the new topology, or null for a path that lost a link, whose reservation
   * is given back).
   */
  void translate(java.util.function.UnaryOperator<Path> translate) {
    context.books().translate(translate);
  }

  private static String flow(Host client, Host server) {
    return SelectionProblem.flowKey(client.name(), server.name());
  }
}
