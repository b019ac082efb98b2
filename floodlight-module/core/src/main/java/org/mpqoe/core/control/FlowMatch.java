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
   * but a switch's cached decision for a SYN then holds for SYNs only. Open vSwitch caches a
   * decision for the fields that the rules it passed examined, and revalidates the cache after a
   * flow mod on its own time, not before the barrier reply. Without a rule on TCP flags, the cached
   * "to the controller" of a SYN can also take the connection's next segments after the subflow's
   * rules are in the table. Once (end-to-end test, user-space datapath) a client's handshake ACK
   * and first data segment reached the controller 4 ms after the barrier, the client's later
   * segments went straight, and the connection ran plain TCP. Our reading: the server completed its
   * handshake with a segment without MP_CAPABLE, which makes it fall back.
   */
  record TcpSyn(int inPort) implements FlowMatch {}

  /**
   * Frames of one EtherType to one destination MAC address (48 bits in a {@code long}): the reflect
   * rule of LLDP probes ({@link LldpProbes#reflectRule}).
   */
  record EthDestination(int ethType, long dstMac) implements FlowMatch {}

  /** Everything: the table-miss entry. */
  record All() implements FlowMatch {}
}
