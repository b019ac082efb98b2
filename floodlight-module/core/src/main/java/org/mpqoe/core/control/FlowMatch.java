package org.mpqoe.core.control;

/**
 * What a rule matches, in OpenFlow 1.3 terms but without any OpenFlow type. Addresses are IPv4 as
 * unsigned 32-bit values in an {@code int}; ports are TCP ports.
 */
public sealed interface FlowMatch {

  /** One direction of one subflow: eth_type IPv4, ip_proto TCP, both addresses and ports. */
  record Subflow(int srcIp, int dstIp, int srcPort, int dstPort) implements FlowMatch {
    /** The other direction of the same subflow. */
    public Subflow reversed() {
      return new Subflow(dstIp, srcIp, dstPort, srcPort);
    }
  }

  /**
   * The SYN/ACK segments of one subflow direction: its match, and TCP flags SYN and ACK both set
   * (OpenFlow 1.5's tcp_flags; under OpenFlow 1.3 Open vSwitch's experimenter field).
   */
  record SynAck(Subflow subflow) implements FlowMatch {}

  /** MPLS unicast with this top label and bottom-of-stack bit (segment routing). */
  record Label(int label, boolean bottomOfStack) implements FlowMatch {}

  /** Any MPLS unicast frame (eth_type 0x8847): sends it to the label table. */
  record AnyMpls() implements FlowMatch {}

  /**
   * IPv4 of one protocol to one address: plain forwarding of non-TCP traffic. Naming the protocol
   * keeps these rules from catching TCP, whose new connections must reach the controller.
   */
  record Ipv4Protocol(int dstIp, int ipProto) implements FlowMatch {}

  /** IPv4 to one address: delivery to a host interface on its first-hop switch. */
  record Ipv4Destination(int dstIp) implements FlowMatch {}

  /** Everything: the table-miss entry. */
  record All() implements FlowMatch {}
}
