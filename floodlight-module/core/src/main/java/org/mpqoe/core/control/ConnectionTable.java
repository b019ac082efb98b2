package org.mpqoe.core.control;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.mpqoe.core.topology.Host;

/**
 * The live connections, indexed by id, by server token and by subflow (either direction), with
 * connection ids that fit the cookie's connection bits and are unique among live connections: the
 * allocator counts up, wraps to 1 after {@link Cookies#MAX_CONNECTION} and skips ids still in use,
 * so that an expiry always finds the connection its cookie names.
 *
 * <p>Changes are made by the owner under its lock; after each change an immutable list of the
 * connections is published, which {@link #snapshot} returns to any thread without a lock.
 */
final class ConnectionTable {
  private final Map<Integer, Connection> byId = new LinkedHashMap<>();
  private final Map<Integer, Integer> byToken = new HashMap<>();
  private final Map<FlowMatch.Subflow, Integer> bySubflow = new HashMap<>();
  private final int maxId;
  private int nextId;
  private volatile List<Connection> published = List.of();

  /**
   * @param firstId the first id handed out (1 in a controller; tests start near the wrap)
   */
  ConnectionTable(int firstId) {
    this(firstId, Cookies.MAX_CONNECTION);
  }

  /** A table whose ids wrap after {@code maxId} (tests use a small space). */
  ConnectionTable(int firstId, int maxId) {
    if (maxId < 1 || maxId > Cookies.MAX_CONNECTION || firstId < 1 || firstId > maxId) {
      throw new IllegalArgumentException(
          "connection ids must lie in 1.." + Cookies.MAX_CONNECTION + ", the first among them");
    }
    this.maxId = maxId;
    this.nextId = firstId;
  }

  /**
   * A new connection under a free id; the caller records it (with its first subflow) by {@link
   * #put} before it lets go of its lock.
   */
  Connection open(Host client, Host server, int version, long nanos) {
    if (byId.size() >= maxId) {
      throw new IllegalStateException("all " + maxId + " connection ids are in use");
    }
    while (byId.containsKey(nextId)) {
      advance();
    }
    Connection c = Connection.opened(nextId, client, server, version, nanos);
    advance();
    return c;
  }

  private void advance() {
    nextId = nextId >= maxId ? 1 : nextId + 1;
  }

  /** Records {@code c} in place of the connection with its id, and publishes. */
  void put(Connection c) {
    Connection old = byId.put(c.id(), c);
    if (old != null) {
      old.subflows().forEach(sf -> bySubflow.remove(sf.toServer()));
    }
    c.subflows().forEach(sf -> bySubflow.put(sf.toServer(), c.id()));
    if (c.serverToken() != null) {
      byToken.put(c.serverToken(), c.id());
    }
    publish();
  }

  /** Ends a connection, and publishes. */
  void remove(Connection c) {
    Connection old = byId.remove(c.id());
    if (old == null) {
      return;
    }
    old.subflows().forEach(sf -> bySubflow.remove(sf.toServer()));
    if (old.serverToken() != null) {
      byToken.remove(old.serverToken(), old.id());
    }
    publish();
  }

  Connection byId(int id) {
    return byId.get(id);
  }

  Connection byToken(int token) {
    Integer id = byToken.get(token);
    return id == null ? null : byId.get(id);
  }

  /** The connection with a subflow whose client-to-server direction is {@code toServer}. */
  Connection bySubflow(FlowMatch.Subflow toServer) {
    Integer id = bySubflow.get(toServer);
    return id == null ? null : byId.get(id);
  }

  /** The live connections between two hosts, oldest first. */
  List<Connection> between(Host client, Host server) {
    List<Connection> out = new ArrayList<>();
    for (Connection c : byId.values()) {
      if (c.between(client, server)) {
        out.add(c);
      }
    }
    return out;
  }

  /** The newest live connection between two hosts, or null. */
  Connection latest(Host client, Host server) {
    Connection best = null;
    for (Connection c : between(client, server)) {
      if (best == null || c.createdNanos() >= best.createdNanos()) {
        best = c;
      }
    }
    return best;
  }

  /** The last published connections: immutable, readable from any thread without a lock. */
  List<Connection> snapshot() {
    return published;
  }

  private void publish() {
    published = List.copyOf(byId.values());
  }
}
