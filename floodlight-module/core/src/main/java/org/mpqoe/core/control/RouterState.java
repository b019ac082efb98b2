package org.mpqoe.core.control;

import org.mpqoe.core.path.CandidatePaths;
import org.mpqoe.core.select.ClientAssignments;

/**
 * What the parts of {@link MptcpRouter} work on together: the network state, the one lock and the
 * books it guards (the clients' assignments and the live connections), and the path selection.
 * {@link Handshakes}, {@link LinkFailover} and {@link TopologySwap} take this, not the router, so
 * that the dependencies point one way: the router wires its parts, the parts share the state.
 */
final class RouterState {
  /** Guards {@link #assignments} and {@link #table}; never held while a selector runs. */
  final Object lock = new Object();

  final ClientAssignments assignments = new ClientAssignments();
  final ConnectionTable table;
  final PathSelection selection;

  /**
   * The network state all handling works on; replaced under {@link #lock} ({@link TopologySwap}),
   * read once per packet-in.
   */
  private volatile Network net;

  RouterState(Network net, ControlConfig config, ControlStats stats, int firstConnectionId) {
    this.net = net;
    this.table = new ConnectionTable(firstConnectionId);
    this.selection = new PathSelection(this::net, config, stats);
  }

  /** The network state as now; read it once and work on that value. */
  Network net() {
    return net;
  }

  /** The current candidate paths (and links marked down). */
  CandidatePaths paths() {
    return net.paths();
  }

  /** Swaps in {@code next}; only {@link TopologySwap} calls this, holding {@link #lock}. */
  void install(Network next) {
    net = next;
  }

  ControlConfig config() {
    return selection.config();
  }

  /** Records a changed connection, or ends it when no subflow is left. Holds {@link #lock}. */
  void update(Connection c) {
    if (!c.subflows().isEmpty()) {
      table.put(c);
      return;
    }
    table.remove(c);
    ClientAssignments.Assignment a = assignments.get(c.client(), c.server());
    if (a == null) {
      return;
    }
    if (a.connections() <= 1) {
      assignments.remove(c.client(), c.server());
      selection.flowEnded(c.client(), c.server());
    } else {
      assignments.put(a.withConnections(a.connections() - 1));
    }
  }
}
