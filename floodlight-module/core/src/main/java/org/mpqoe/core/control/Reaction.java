package org.mpqoe.core.control;

/**
 * What the control plane decided for one packet-in: the plan to apply (possibly empty) and one line
 * for the log.
 */
public record Reaction(Kind kind, FlowPlan plan, String log) {
  /** Which part of the control plane handled the packet. */
  public enum Kind {
    /** An MPTCP handshake packet: subflow rules, key learning. */
    MPTCP,
    /** An ARP request answered from the topology. */
    ARP,
    /** Other IPv4: shortest-path rules (standalone runtime). */
    PLAIN,
    /** Not for us (Floodlight: left to the Forwarding module). */
    IGNORED,
    /** Deliberately not forwarded (e.g. an MP_JOIN for a subflow that has no path). */
    DROPPED
  }

  public static Reaction ignored(String why) {
    return new Reaction(Kind.IGNORED, FlowPlan.EMPTY, why);
  }

  public static Reaction dropped(String why) {
    return new Reaction(Kind.DROPPED, FlowPlan.EMPTY, why);
  }
}
