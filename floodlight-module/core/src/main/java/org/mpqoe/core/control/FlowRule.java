package org.mpqoe.core.control;

import java.util.List;

/**
 * One flow entry to install on one switch.
 *
 * @param dpid the switch
 * @param table table id (0 for subflow rules, {@link SegmentRouting#LABEL_TABLE} for label rules)
 * @param priority above plain forwarding for subflow rules
 * @param match what it matches
 * @param actions applied in order
 * @param idleTimeoutS 0 = permanent
 * @param cookie marks the rule as mpqoe's and says which connection/subflow it serves ({@link
 *     Cookies})
 * @param notifyRemoval ask the switch to report its removal (OFPFF_SEND_FLOW_REM)
 */
public record FlowRule(
    long dpid,
    int table,
    int priority,
    FlowMatch match,
    List<FlowAction> actions,
    int idleTimeoutS,
    long cookie,
    boolean notifyRemoval) {
  public FlowRule {
    actions = List.copyOf(actions);
  }
}
