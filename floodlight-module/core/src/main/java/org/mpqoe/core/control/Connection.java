package org.mpqoe.core.control;

import java.util.ArrayList;
import java.util.List;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.topology.Host;

/**
 * An MPTCP connection the controller routed, and its subflows. Immutable: a change makes a new
 * value, which the {@link ConnectionTable} publishes, so readers on any thread see a consistent
 * one.
 *
 * @param id unique among live connections within the cookie's connection bits ({@link Cookies})
 * @param serverToken the server's token once its key was seen, else null
 * @param nextSubflow the index the next subflow gets
 */
public record Connection(
    int id,
    Host client,
    Host server,
    int version,
    long createdNanos,
    Integer serverToken,
    int nextSubflow,
    List<Subflow> subflows) {

  /** How an MP_JOIN was tied to its connection. */
  public enum MatchedBy {
    HANDSHAKE,
    TOKEN,
    HOST_IDENTITY
  }

  /**
   * One subflow and the path and rules that carry it.
   *
   * @param pathIndex which of the client's assigned paths it uses (0 for the MP_CAPABLE subflow,
   *     the interface index for joins)
   */
  public record Subflow(
      int index,
      FlowMatch.Subflow toServer,
      int clientInterface,
      int serverInterface,
      int pathIndex,
      Path path,
      long cookie,
      MatchedBy matchedBy,
      List<FlowRule> rules) {
    public Subflow {
      rules = List.copyOf(rules);
    }

    /**
     * True when the server edge copies the server's SYN/ACK to the controller ({@link
     * SubflowRules}).
     */
    public boolean copiesSynAck() {
      return rules.stream().anyMatch(SubflowRules::isSynAckCopy);
    }

    Subflow withRoute(Path newPath, long newCookie, List<FlowRule> newRules) {
      return new Subflow(
          index,
          toServer,
          clientInterface,
          serverInterface,
          pathIndex,
          newPath,
          newCookie,
          matchedBy,
          newRules);
    }
  }

  public Connection {
    subflows = List.copyOf(subflows);
  }

  static Connection opened(int id, Host client, Host server, int version, long nanos) {
    return new Connection(id, client, server, version, nanos, null, 0, List.of());
  }

  /** This connection with one more subflow (which takes index {@link #nextSubflow}). */
  Connection with(Subflow added) {
    List<Subflow> next = new ArrayList<>(subflows);
    next.add(added);
    return new Connection(
        id, client, server, version, createdNanos, serverToken, nextSubflow + 1, next);
  }

  /** This connection with the subflow of the same index replaced, or removed when null. */
  Connection replacing(Subflow old, Subflow replacement) {
    List<Subflow> next = new ArrayList<>();
    for (Subflow sf : subflows) {
      if (sf.index() != old.index()) {
        next.add(sf);
      } else if (replacement != null) {
        next.add(replacement);
      }
    }
    return new Connection(
        id, client, server, version, createdNanos, serverToken, nextSubflow, next);
  }

  Connection withServerToken(int token) {
    return new Connection(id, client, server, version, createdNanos, token, nextSubflow, subflows);
  }

  /** The subflow whose client-to-server direction is {@code toServer}, or null. */
  public Subflow subflow(FlowMatch.Subflow toServer) {
    return subflows.stream().filter(sf -> sf.toServer().equals(toServer)).findFirst().orElse(null);
  }

  /** True when this connection runs between these two hosts. */
  public boolean between(Host c, Host s) {
    return client.equals(c) && server.equals(s);
  }
}
