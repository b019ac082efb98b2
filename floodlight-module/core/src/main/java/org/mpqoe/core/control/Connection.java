package org.mpqoe.core.control;

import java.util.ArrayList;
import java.util.List;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.topology.Host;

/** An MPTCP connection the controller routed, and its subflows. Mutable; guarded by the router. */
public final class Connection {
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
  }

  final int id;
  final Host client;
  final Host server;
  final int version;
  final long createdNanos;
  Long serverKey;
  int nextSubflow;
  Integer serverToken;
  final List<Subflow> subflows = new ArrayList<>();

  Connection(int id, Host client, Host server, int version, long createdNanos) {
    this.id = id;
    this.client = client;
    this.server = server;
    this.version = version;
    this.createdNanos = createdNanos;
  }

  public int id() {
    return id;
  }

  public Host client() {
    return client;
  }

  public Host server() {
    return server;
  }

  public int version() {
    return version;
  }

  /** The server's token once its key was seen, else null. */
  public Integer serverToken() {
    return serverToken;
  }

  public List<Subflow> subflows() {
    return List.copyOf(subflows);
  }
}
