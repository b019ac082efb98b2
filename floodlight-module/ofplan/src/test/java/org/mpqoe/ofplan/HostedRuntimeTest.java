package org.mpqoe.ofplan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.control.ControlConfig;
import org.mpqoe.core.control.Cookies;
import org.mpqoe.core.control.FlowPlan;
import org.mpqoe.core.control.FlowRule;
import org.mpqoe.core.control.LinkStateTracker;
import org.mpqoe.core.control.MptcpControlPlane;
import org.mpqoe.core.control.Reaction;
import org.mpqoe.core.topology.Link;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyLoader;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.action.OFActionOutput;
import org.projectfloodlight.openflow.protocol.instruction.OFInstructionApplyActions;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.IpProtocol;
import org.projectfloodlight.openflow.types.Masked;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U16;

class HostedRuntimeTest {
  private static final OFFactory OF = OFFactories.getFactory(OFVersion.OF_13);

  @Test
  void hostPortsComeFromTheDescriptor() {
    Topology t = TopologyLoader.load("three-path");
    assertEquals(List.of(2), HostedRuntime.hostPorts(t, 1), "the client's first interface on p1");
    assertEquals(List.of(4), HostedRuntime.hostPorts(t, 4), "the server on sv");
    assertEquals(List.of(), HostedRuntime.hostPorts(t, 99));
  }

  @Test
  void theTrapSendsSynsWithoutAckFromHostPortsToTheController() {
    ControlConfig c = ControlConfig.defaults();
    int priority = HostedRuntime.trapPriority(c);
    assertTrue(priority > 1, "above Forwarding's flows");
    assertTrue(priority < c.plainPriority() && priority < c.subflowPriority(), "below the core's");
    List<OFFlowAdd> flows = HostedRuntime.synTraps(7, List.of(2, 5), priority);
    assertEquals(2, flows.size());
    OFFlowAdd f = flows.get(1);
    assertEquals(OFPort.of(5), f.getMatch().get(MatchField.IN_PORT));
    assertEquals(EthType.IPv4, f.getMatch().get(MatchField.ETH_TYPE));
    assertEquals(IpProtocol.TCP, f.getMatch().get(MatchField.IP_PROTO));
    assertEquals(
        Masked.of(U16.of(0x02), U16.of(0x12)), f.getMatch().getMasked(MatchField.OVS_TCP_FLAGS));
    assertEquals(priority, f.getPriority());
    assertEquals(Cookies.TABLE_MISS, Cookies.kind(f.getCookie().getValue()));
    OFInstructionApplyActions apply = (OFInstructionApplyActions) f.getInstructions().get(0);
    OFActionOutput out = (OFActionOutput) apply.getActions().get(0);
    assertEquals(OFPort.CONTROLLER, out.getPort());
    assertEquals(0xffff, out.getMaxLen());
  }

  @Test
  void onlyRoutedOrDeliberatelyDroppedHandshakesStopTheHostsChain() {
    assertTrue(HostedRuntime.consumes(new Reaction(Reaction.Kind.MPTCP, FlowPlan.EMPTY, "")));
    assertTrue(HostedRuntime.consumes(Reaction.dropped("no path")));
    assertFalse(HostedRuntime.consumes(Reaction.ignored("not MPTCP")));
    assertFalse(HostedRuntime.consumes(new Reaction(Reaction.Kind.ARP, FlowPlan.EMPTY, "")));
    assertFalse(HostedRuntime.consumes(new Reaction(Reaction.Kind.PLAIN, FlowPlan.EMPTY, "")));
  }

  @Test
  void anActiveSwitchGetsTheCoresRulesButNotItsTableMiss() {
    Topology t = TopologyLoader.load("three-path");
    List<FlowRule> all =
        new MptcpControlPlane(t, ControlConfig.defaults(), MptcpControlPlane.Source.DESCRIPTOR)
            .switchConnected(4);
    List<FlowRule> kept = HostedRuntime.onSwitchActive(all);
    assertTrue(all.stream().anyMatch(r -> Cookies.kind(r.cookie()) == Cookies.TABLE_MISS));
    assertFalse(kept.isEmpty(), "the server's delivery rule stays");
    assertTrue(kept.stream().noneMatch(r -> Cookies.kind(r.cookie()) == Cookies.TABLE_MISS));
    assertEquals(
        all.stream().filter(r -> Cookies.kind(r.cookie()) != Cookies.TABLE_MISS).toList(), kept);
  }

  @Test
  void trapsAreRenewedOnNewSwitchesAndWhereHostPortsChanged() {
    Topology t = TopologyLoader.load("three-path");
    assertEquals(List.of(), HostedRuntime.switchesNeedingTraps(t, t));
    Topology none = Topology.empty("none");
    assertEquals(
        t.switches().stream().map(s -> s.dpid()).toList(),
        HostedRuntime.switchesNeedingTraps(none, t),
        "every switch is new");
    Topology other = TopologyLoader.load("parallel");
    for (long dpid : HostedRuntime.switchesNeedingTraps(t, other)) {
      assertTrue(
          t.switchWithDpid(dpid).isEmpty()
              || !HostedRuntime.hostPorts(t, dpid).equals(HostedRuntime.hostPorts(other, dpid)));
    }
  }

  @Test
  void latenciesOfBothDirectionsAreAveragedPerLinkAndUnknownLinksLeftOut() {
    Topology t = TopologyLoader.load("three-path");
    LinkStateTracker links = new LinkStateTracker(t);
    Link l = t.links().get(0);
    long a = l.a().dpid();
    long b = l.b().dpid();
    int pa = l.portAt(l.a());
    int pb = l.portAt(l.b());
    Map<Integer, Double> out =
        HostedRuntime.linkLatencies(
            links,
            List.of(
                new HostedRuntime.DirectedLatency(a, pa, b, pb, 30),
                new HostedRuntime.DirectedLatency(b, pb, a, pa, 40),
                new HostedRuntime.DirectedLatency(a, pa, b, pb + 17, 1),
                new HostedRuntime.DirectedLatency(b, pb, a, pa, Double.NaN)));
    assertEquals(Map.of(l.index(), 35.0), out);
  }
}
