package org.mpqoe.core.control;

import java.util.ArrayList;
import java.util.List;

/**
 * What a runtime must do for one event, in order: delete the rules selected by {@code removals},
 * install {@code installs} (listed farthest switch first, so a packet never overtakes its rules),
 * modify {@code modifications} (same match and priority, new actions), send a barrier to every
 * switch touched, then send {@code packetOut} if any.
 */
public record FlowPlan(
    List<Removal> removals,
    List<FlowRule> installs,
    List<FlowRule> modifications,
    PacketOut packetOut) {

  /** Deletes every rule on {@code dpid} (all switches when 0) whose cookie matches under mask. */
  public record Removal(long dpid, long cookie, long cookieMask) {}

  /**
   * Sends a frame out of a switch.
   *
   * @param inPort where it came in (for the switch's bookkeeping)
   * @param frame the Ethernet frame
   */
  public record PacketOut(long dpid, int inPort, byte[] frame, List<FlowAction> actions) {
    public PacketOut {
      actions = List.copyOf(actions);
    }
  }

  public static final FlowPlan EMPTY = new FlowPlan(List.of(), List.of(), List.of(), null);

  public FlowPlan {
    removals = List.copyOf(removals);
    installs = List.copyOf(installs);
    modifications = List.copyOf(modifications);
  }

  public boolean isEmpty() {
    return removals.isEmpty() && installs.isEmpty() && modifications.isEmpty() && packetOut == null;
  }

  /** This plan followed by {@code other} (the later packet-out wins). */
  public FlowPlan then(FlowPlan other) {
    List<Removal> r = new ArrayList<>(removals);
    r.addAll(other.removals);
    List<FlowRule> i = new ArrayList<>(installs);
    i.addAll(other.installs);
    List<FlowRule> m = new ArrayList<>(modifications);
    m.addAll(other.modifications);
    return new FlowPlan(r, i, m, other.packetOut != null ? other.packetOut : packetOut);
  }
}
