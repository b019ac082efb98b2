package org.mpqoe.floodlight;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.mpqoe.core.control.ControlConfig;
import org.mpqoe.core.control.Cookies;
import org.mpqoe.core.control.FlowAction;
import org.mpqoe.core.control.FlowMatch;
import org.mpqoe.core.control.FlowRule;
import org.mpqoe.core.topology.Host;
import org.mpqoe.core.topology.HostInterface;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.ofplan.OfTranslator;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;

/**
 * Keeps TCP handshakes coming to the controller while Floodlight's Forwarding runs.
 *
 * <p>In the standalone runtime every frame without a rule reaches the controller through the core's
 * table-miss entries. Under Floodlight, Forwarding installs flows of its own (priority 1, idle
 * timeout 5 s), and for IPv4 that is neither TCP nor UDP (a ping) their match is only the address
 * pair, without ip_proto: for as long as such a flow lives, an MPTCP SYN between the same two
 * addresses would be forwarded by it and never seen by mpqoe (observed: a ping just before the
 * transfer left all three subflows to Forwarding). So every host-facing port of the descriptor gets
 * one more rule: a TCP segment with SYN set and ACK clear that enters the network there goes to the
 * controller (mpqoe routes the MPTCP ones; the rest continue to Forwarding). Its priority is just
 * below the core's plain and delivery rules, so it changes nothing the core decided, and far above
 * Forwarding's. This is adapter plumbing, not a routing decision.
 */
final class SynTrap {
  /**
   * The match is the core's {@link FlowMatch.TcpSyn}: TCP flags are not in OpenFlow 1.3 (1.5 has
   * them), so the trap needs Open vSwitch's experimenter field, as the standalone runtime's SYN
   * entry does. A switch that refuses it is reported in Floodlight's log ("refused an mpqoe rule").
   */
  private static final OfTranslator TRANSLATOR = new OfTranslator();

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

  /** One flow per host port of {@code dpid}: SYN without ACK from that port to the controller. */
  static List<OFFlowAdd> flows(long dpid, List<Integer> hostPorts, int priority) {
    List<OFFlowAdd> out = new ArrayList<>();
    for (int port : hostPorts) {
      out.add(
          TRANSLATOR.flowAdd(
              new FlowRule(
                  dpid,
                  0,
                  priority,
                  new FlowMatch.TcpSyn(port),
                  List.of(new FlowAction.ToController()),
                  0,
                  Cookies.of(Cookies.TABLE_MISS),
                  false)));
    }
    return out;
  }
}
