package org.mpqoe.floodlight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.control.ControlConfig;
import org.mpqoe.core.control.Cookies;
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

class SynTrapTest {
  private static final OFFactory OF = OFFactories.getFactory(OFVersion.OF_13);

  @Test
  void hostPortsComeFromTheDescriptor() {
    Topology t = TopologyLoader.load("three-path");
    assertEquals(List.of(2), SynTrap.hostPorts(t, 1), "the client's first interface on p1");
    assertEquals(List.of(4), SynTrap.hostPorts(t, 4), "the server on sv");
    assertEquals(List.of(), SynTrap.hostPorts(t, 99));
  }

  @Test
  void theTrapSendsSynsWithoutAckFromHostPortsToTheController() {
    ControlConfig c = ControlConfig.defaults();
    int priority = SynTrap.priority(c);
    assertTrue(priority > 1, "above Forwarding's flows");
    assertTrue(priority < c.plainPriority() && priority < c.subflowPriority(), "below the core's");
    List<OFFlowAdd> flows = SynTrap.flows(7, List.of(2, 5), priority);
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
}
