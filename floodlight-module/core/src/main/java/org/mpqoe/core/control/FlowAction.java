package org.mpqoe.core.control;

import java.util.List;

/** An action of a rule, in OpenFlow 1.3 terms but without any OpenFlow type. */
public sealed interface FlowAction {

  /** OpenFlow's OFPP_TABLE: in a packet-out, run the frame through the switch's tables. */
  int PORT_TABLE = 0xfffffff9;

  /** OpenFlow's OFPP_CONTROLLER: as a packet-out's in_port, "the controller made this frame". */
  int PORT_CONTROLLER = 0xfffffffd;

  /** OpenFlow's OFPP_IN_PORT: as an output port, back out of the port the frame came in on. */
  int PORT_IN_PORT = 0xfffffff8;

  /** Output on a switch port ({@link #PORT_TABLE} in a packet-out: through the tables). */
  record Output(int port) implements FlowAction {}

  /** Send to the controller (a copy when other outputs are present). */
  record ToController() implements FlowAction {}

  /**
   * Push MPLS labels (ethertype 0x8847); {@code labels.get(0)} ends on top, i.e. it is the first
   * segment to be processed.
   */
  record PushLabels(List<Integer> labels) implements FlowAction {
    public PushLabels {
      labels = List.copyOf(labels);
    }
  }

  /** Pop the top MPLS label; {@code bottomOfStack} says the result is IPv4 (0x0800). */
  record PopLabel(boolean bottomOfStack) implements FlowAction {}

  /** Rewrite the destination MAC address (48 bits in a {@code long}). */
  record SetEthDestination(long mac) implements FlowAction {}

  /** Continue in another table (the label table). */
  record GotoTable(int table) implements FlowAction {}
}
