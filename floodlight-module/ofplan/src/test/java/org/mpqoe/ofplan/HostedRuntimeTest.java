package org.mpqoe.ofplan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.control.ControlConfig;
import org.mpqoe.core.control.Cookies;
import org.mpqoe.core.control.FlowMatch;
import org.mpqoe.core.control.FlowPlan;
import org.mpqoe.core.control.FlowRule;
import org.mpqoe.core.control.LinkDelayEstimator;
import org.mpqoe.core.control.LinkStateTracker;
import org.mpqoe.core.control.LldpProbes;
import org.mpqoe.core.control.MptcpControlPlane;
import org.mpqoe.core.control.Reaction;
import org.mpqoe.core.topology.NetworkView;
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
  void aSwitchOfTheTopologyGetsTheReflectRuleAfterTheCoresRules() {
    FlowRule core =
        new FlowRule(
            3,
            0,
            9,
            new FlowMatch.Ipv4Destination(1),
            List.of(),
            0,
            Cookies.of(Cookies.PLAIN),
            false);
    assertEquals(
        List.of(core, LldpProbes.reflectRule(3)), HostedRuntime.switchRules(3, List.of(core)));
    assertEquals(List.of(LldpProbes.reflectRule(5)), HostedRuntime.switchRules(5, List.of()));
  }

  @Test
  void aProbeRoundReflectsOutOfEveryUpPortOfTheTopologysSwitchesOnly() {
    Topology t = TopologyLoader.load("three-path");
    NetworkView view =
        new NetworkView(
            List.of(
                new NetworkView.SwitchView(
                    4,
                    List.of(
                        new NetworkView.PortView(4, 0, true),
                        new NetworkView.PortView(1, 0, true))),
                new NetworkView.SwitchView(99, List.of(new NetworkView.PortView(1, 0, true))),
                new NetworkView.SwitchView(
                    1,
                    List.of(
                        new NetworkView.PortView(1, 0, true),
                        new NetworkView.PortView(2, 0, false)))),
            List.of(),
            List.of());
    List<LldpProbes.Timed> round = HostedRuntime.probeRound(view, t, 3_000_000_000L);
    assertEquals(
        List.of(new LldpProbes.Port(1, 1), new LldpProbes.Port(4, 1), new LldpProbes.Port(4, 4)),
        round.stream().map(LldpProbes.Timed::port).toList(),
        "dpid and port order; not the port that is down, not the switch outside the topology");
    assertEquals(
        List.of(0L, 1_000_000_000L, 2_000_000_000L),
        round.stream().map(LldpProbes.Timed::delayNanos).toList());
    assertTrue(round.stream().allMatch(r -> r.kind() == LldpProbes.Kind.REFLECT));
  }

  @Test
  void ourProbesStopReflectedOnesAreSamplesAndAnyoneElsesLldpGoesOn() {
    Topology t = TopologyLoader.load("three-path");
    LinkStateTracker links = new LinkStateTracker(t);
    long sent = 5_000_000_000L;
    byte[] back = LldpProbes.frame(LldpProbes.Kind.REFLECTED, 1, 1, sent);
    byte[] out = LldpProbes.frame(LldpProbes.Kind.REFLECT, 1, 1, sent);
    // Reflected probes back at p1:1 and sv:1, with the one-way times of both directions: 8 rounds
    // of (55 + 55 - 30 - 40) / 2 = 20 ms.
    for (int i = 0; i < LinkDelayEstimator.WINDOW; i++) {
      assertTrue(Double.isNaN(links.delayEstimate(1, 1, 4, 1)), "unknown before 8 rounds");
      links.lldpSample(1, 1, 4, 1, 30);
      links.lldpSample(4, 1, 1, 1, 40);
      assertTrue(HostedRuntime.lldpIn(links, 1, 1, back, sent + 55_000_000));
      assertTrue(
          HostedRuntime.lldpIn(
              links,
              4,
              1,
              LldpProbes.frame(LldpProbes.Kind.REFLECTED, 4, 1, sent),
              sent + 55_000_000));
    }
    assertEquals(20.0, links.delayEstimate(1, 1, 4, 1), 1e-9);
    // Stopped but no time: unreflected, or back on another port; a one-way probe of mpqoe's.
    LinkStateTracker none = new LinkStateTracker(t);
    none.lldpSample(1, 1, 4, 1, 30);
    assertTrue(HostedRuntime.lldpIn(none, 4, 1, out, sent + 1));
    assertTrue(HostedRuntime.lldpIn(none, 1, 2, back, sent + 1));
    assertTrue(HostedRuntime.lldpIn(none, 4, 1, LldpProbes.frame(1, 1, sent), sent + 1));
    // Not ours: Floodlight's probe (its stamp under subtype 1), an ARP frame.
    byte[] floodlights = LldpProbes.frame(1, 1, sent);
    floodlights[14 + 9 + 7 + 4 + 14 + 5] = 0x01;
    assertFalse(HostedRuntime.lldpIn(none, 4, 1, floodlights, sent + 1));
    assertFalse(HostedRuntime.lldpIn(none, 4, 1, new byte[42], sent + 1));
  }
}
