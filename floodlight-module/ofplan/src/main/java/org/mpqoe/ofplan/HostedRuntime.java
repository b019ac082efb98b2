package org.mpqoe.ofplan;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import org.mpqoe.core.control.ControlConfig;
import org.mpqoe.core.control.Cookies;
import org.mpqoe.core.control.FlowAction;
import org.mpqoe.core.control.FlowMatch;
import org.mpqoe.core.control.FlowRule;
import org.mpqoe.core.control.LinkStateTracker;
import org.mpqoe.core.control.LldpProbes;
import org.mpqoe.core.control.Reaction;
import org.mpqoe.core.topology.Host;
import org.mpqoe.core.topology.HostInterface;
import org.mpqoe.core.topology.NetworkView;
import org.mpqoe.core.topology.SwitchNode;
import org.mpqoe.core.topology.Topology;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;

/**
 * The core inside a controller that owns everything else on the switches (Floodlight): its
 * table-miss entries, its reactive Forwarding flows, its packet-in chain. What the adapter of such
 * a controller decides is here, so that the adapter itself only translates events and calls.
 *
 * <p><b>SYN traps.</b> In the standalone runtime every frame without a rule reaches the controller
 * through the core's table-miss entries. Under Floodlight, Forwarding installs flows of its own
 * (priority 1, idle timeout 5 s), and for IPv4 that is neither TCP nor UDP (a ping) their match is
 * only the address pair, without ip_proto: for as long as such a flow lives, an MPTCP SYN between
 * the same two addresses would be forwarded by it and never seen by mpqoe (observed: a ping just
 * before the transfer left all three subflows to Forwarding). So every host-facing port of the
 * topology gets one more rule: a TCP segment with SYN set and ACK clear that enters the network
 * there goes to the controller (mpqoe routes the MPTCP ones; the rest continue to Forwarding). Its
 * priority is just below the core's plain and delivery rules, so it changes nothing the core
 * decided, and far above Forwarding's. The match is the core's {@link FlowMatch.TcpSyn}: TCP flags
 * are not in OpenFlow 1.3 (1.5 has them), so the trap needs Open vSwitch's experimenter field, as
 * the standalone runtime's SYN entry does.
 */
public final class HostedRuntime {
  private static final OfTranslator TRANSLATOR = new OfTranslator();

  private HostedRuntime() {}

  /**
   * Whether the host controller's packet-in chain stops after the core's answer: for MPTCP
   * handshakes the core routed and for segments it dropped on purpose. Everything else (ARP, plain
   * IPv4, what the core ignored) goes on to the host's own forwarding.
   */
  public static boolean consumes(Reaction r) {
    return r.kind() == Reaction.Kind.MPTCP || r.kind() == Reaction.Kind.DROPPED;
  }

  /**
   * The core's rules for a switch that became active, without its table-miss entries: the host
   * controller has just installed its own.
   */
  public static List<FlowRule> onSwitchActive(Collection<FlowRule> rules) {
    return rules.stream().filter(r -> Cookies.kind(r.cookie()) != Cookies.TABLE_MISS).toList();
  }

  /**
   * What a switch of the topology gets when it becomes active, or when a rebuild adds it: {@code
   * coreRules}, then the reflect rule of LLDP probes ({@link LldpProbes#reflectRule}, the one the
   * standalone runtime installs at a handshake), so that the switch sends mpqoe's reflect probes
   * back and link delays come out with every switch's own time cancelled.
   */
  public static List<FlowRule> switchRules(long dpid, Collection<FlowRule> coreRules) {
    List<FlowRule> out = new ArrayList<>(coreRules);
    out.add(LldpProbes.reflectRule(dpid));
    return out;
  }

  /**
   * The probe kinds the adapter sends: reflect probes only. The host controller's link discovery
   * sends the one-way probes, and the adapter reads them (for Floodlight, {@code FloodlightLldp}).
   */
  public static final List<LldpProbes.Kind> PROBE_KINDS = List.of(LldpProbes.Kind.REFLECT);

  /**
   * One round of reflect probes: out of every up port of every switch of {@code topology} that
   * {@code view} reports, in dpid and port order, spread over {@code intervalNanos} ({@link
   * LldpProbes#round}).
   */
  public static List<LldpProbes.Timed> probeRound(
      NetworkView view, Topology topology, long intervalNanos) {
    List<LldpProbes.Port> up = new ArrayList<>();
    view.switches().stream()
        .filter(s -> topology.switchWithDpid(s.dpid()).isPresent())
        .sorted(Comparator.comparingLong(NetworkView.SwitchView::dpid))
        .forEach(
            s ->
                s.ports().stream()
                    .filter(NetworkView.PortView::up)
                    .sorted(Comparator.comparingInt(NetworkView.PortView::port))
                    .forEach(p -> up.add(new LldpProbes.Port(s.dpid(), p.port()))));
    return LldpProbes.round(up, intervalNanos, PROBE_KINDS);
  }

  /**
   * A packet-in at {@code nowNanos} that the host controller must not see when it is one of mpqoe's
   * probes (its link discovery would drop it as a stranger's, and nothing else has any use for it).
   * A reflected probe back at the port it left is its link's reflected time ({@link
   * LinkStateTracker#lldpReflected}); a reflect probe that reached a controller unreflected (the
   * far switch has no reflect rule) is nothing. Returns whether the frame was mpqoe's: then the
   * host's chain stops here. Anything else, the host controller's own probes included, goes on.
   */
  public static boolean lldpIn(
      LinkStateTracker links, long dpid, int inPort, byte[] frame, long nowNanos) {
    if (!LldpProbes.isOurs(frame)) {
      return false;
    }
    LldpProbes.reflectedIn(dpid, inPort, frame, nowNanos)
        .ifPresent(ms -> links.lldpReflected(dpid, inPort, ms));
    return true;
  }

  /** The ports of {@code dpid} where a host interface of {@code topology} is attached, sorted. */
  public static List<Integer> hostPorts(Topology topology, long dpid) {
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

  /**
   * The switches of {@code after} whose SYN traps must be (re)installed: those new in it and those
   * whose host ports changed.
   */
  public static List<Long> switchesNeedingTraps(Topology before, Topology after) {
    List<Long> out = new ArrayList<>();
    for (SwitchNode sw : after.switches()) {
      if (before.switchWithDpid(sw.dpid()).isEmpty()
          || !hostPorts(after, sw.dpid()).equals(hostPorts(before, sw.dpid()))) {
        out.add(sw.dpid());
      }
    }
    return out;
  }

  /** Priority of the traps: below the core's plain and delivery rules, above Forwarding's. */
  public static int trapPriority(ControlConfig config) {
    return config.plainPriority() - 1;
  }

  /** One flow per host port of {@code dpid}: SYN without ACK from that port to the controller. */
  public static List<OFFlowAdd> synTraps(long dpid, List<Integer> hostPorts, int priority) {
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
