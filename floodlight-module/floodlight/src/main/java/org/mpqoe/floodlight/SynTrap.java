package org.mpqoe.floodlight;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.mpqoe.core.control.ControlConfig;
import org.mpqoe.core.control.Cookies;
import org.mpqoe.core.topology.Host;
import org.mpqoe.core.topology.HostInterface;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.ofplan.OfTranslator;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.IpProtocol;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U16;
import org.projectfloodlight.openflow.types.U64;

/**
 * Keeps TCP handshakes coming to the controller while Floodlight's Forwarding runs.
 *
 * <p>In the standalone runtime every frame without a rule reaches the controller through the core's
 * table-miss entry. Under Floodlight, Forwarding installs flows of its own (priority 1, idle
 * timeout 5 s), and for IPv4 that is neither TCP nor UDP (a ping) their match is only the address
 * pair, without ip_proto: for as long as such a flow lives, an MPTCP SYN between the same two
 * addresses would be forwarded by it and never seen by mpqoe (observed: a ping just before the
 * transfer left all three subflows to Forwarding). So every host-facing port of the descriptor gets
 * one more rule: a TCP segment with SYN set and ACK clear that enters the network there goes to the
 * controller (mpqoe routes the MPTCP ones; the rest continue to Forwarding). Its priority is just
 * below the core's plain and delivery rules, so it changes nothing the core decided, and far above
 * Forwarding's. This is adapter plumbing, not a routing decision; the core has no FlowMatch for TCP
 * flags, so the rule is built here.
 */
final class SynTrap {
  /**
   * TCP flags. OpenFlow 1.3 has no tcp_flags field (1.5 has); openflowj offers Open vSwitch's
   * experimenter field for 1.3 (MatchField.OVS_TCP_FLAGS), so the trap needs Open vSwitch. A switch
   * that refuses it is reported in Floodlight's log ("refused an mpqoe rule").
   */
  private static final int SYN = 0x02;

  private static final int ACK = 0x10;

  private SynTrap() {}

  /** The ports of {@code dpid} where a host interface of the descriptor is attached, sorted. */
  static List<Integer> hostPorts(Topology topology, long dpid) {
    TreeSet<Integer> ports = new TreeSet<>();
    for (Host h : topology.hosts()) {
      for (HostInterface i : h.interfaces()) {
        if (i.attachment().dpid() == dpid) {
          ports.add(i.port());
        }
      }
    }
    return List.copyOf(ports);
  }

  /** Priority of the trap: below the core's plain and delivery rules, above Forwarding's. */
  static int priority(ControlConfig config) {
    return config.plainPriority() - 1;
  }

  /** One flow per host port: SYN without ACK from that port to the controller, whole frame. */
  static List<OFFlowAdd> flows(OFFactory f, List<Integer> hostPorts, int priority) {
    List<OFFlowAdd> out = new ArrayList<>();
    for (int port : hostPorts) {
      out.add(
          f.buildFlowAdd()
              .setTableId(TableId.of(0))
              .setPriority(priority)
              .setCookie(U64.of(Cookies.of(Cookies.TABLE_MISS)))
              .setBufferId(OFBufferId.NO_BUFFER)
              .setMatch(
                  f.buildMatch()
                      .setExact(MatchField.IN_PORT, OFPort.of(port))
                      .setExact(MatchField.ETH_TYPE, EthType.IPv4)
                      .setExact(MatchField.IP_PROTO, IpProtocol.TCP)
                      .setMasked(MatchField.OVS_TCP_FLAGS, U16.of(SYN), U16.of(SYN | ACK))
                      .build())
              .setActions(
                  List.of(f.actions().output(OFPort.CONTROLLER, OfTranslator.NO_BUFFER_LEN)))
              .build());
    }
    return out;
  }
}
