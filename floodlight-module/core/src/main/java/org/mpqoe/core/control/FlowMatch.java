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

  /**
   * A connection's first segment: TCP with SYN set and ACK clear, entering at {@code inPort} (0: at
   * any port); TCP flags as in {@link SynAck}. It sends what the table-miss entry would send too,
   * but a switch's cache of a SYN's decision then holds for SYNs only: Open vSwitch caches each
   * decision for the fields the rules it passed examined, and without a rule on TCP flags the
   * cached "to the controller" of a SYN also took the connection's next segments, until the switch
   * revalidated its cache after the subflow's rules arrived. Those segments reached the server
   * after later ones that the new rules forwarded directly; a server whose handshake ends with a
   * segment without MP_CAPABLE falls back to plain TCP (seen in the end-to-end test).
   */
  record TcpSyn(int inPort) implements FlowMatch {}

  /** Everything: the table-miss entry. */
  record All() implements FlowMatch {}
}
