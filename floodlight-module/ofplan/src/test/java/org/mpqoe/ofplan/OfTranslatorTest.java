package org.mpqoe.ofplan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.control.Cookies;
import org.mpqoe.core.control.FlowAction;
import org.mpqoe.core.control.FlowMatch;
import org.mpqoe.core.control.FlowPlan;
import org.mpqoe.core.control.FlowRule;
import org.mpqoe.core.control.LldpProbes;
import org.mpqoe.core.packet.Addresses;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowDelete;
import org.projectfloodlight.openflow.protocol.OFFlowModCommand;
import org.projectfloodlight.openflow.protocol.OFFlowModFlags;
import org.projectfloodlight.openflow.protocol.OFFlowModifyStrict;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.action.OFAction;
import org.projectfloodlight.openflow.protocol.action.OFActionOutput;
import org.projectfloodlight.openflow.protocol.action.OFActionPopMpls;
import org.projectfloodlight.openflow.protocol.action.OFActionPushMpls;
import org.projectfloodlight.openflow.protocol.action.OFActionSetField;
import org.projectfloodlight.openflow.protocol.instruction.OFInstruction;
import org.projectfloodlight.openflow.protocol.instruction.OFInstructionApplyActions;
import org.projectfloodlight.openflow.protocol.instruction.OFInstructionGotoTable;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.protocol.oxm.OFOxmMplsLabel;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IpProtocol;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFBooleanValue;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFGroup;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.TransportPort;
import org.projectfloodlight.openflow.types.U16;
import org.projectfloodlight.openflow.types.U32;
import org.projectfloodlight.openflow.types.U64;

class OfTranslatorTest {
  private final OfTranslator t = new OfTranslator();

  private static final int CLIENT = Addresses.parseIpv4("10.0.1.11");
  private static final int SERVER = Addresses.parseIpv4("10.0.1.1");

  private static FlowRule rule(
      FlowMatch match, List<FlowAction> actions, int table, boolean notify, long cookie) {
    return new FlowRule(7, table, 40000, match, actions, 10, cookie, notify);
  }

  @Test
  void synAckCopyMatchesTheSubflowWithSynAndAckSetAsOpenVswitchsTcpFlagsField() {
    FlowMatch.Subflow down = new FlowMatch.Subflow(SERVER, CLIENT, 80, 40001);
    OFFlowAdd add =
        t.flowAdd(
            rule(
                new FlowMatch.SynAck(down),
                List.of(new FlowAction.ToController(), new FlowAction.Output(3)),
                0,
                false,
                1));
    Match m = add.getMatch();
    assertEquals(IPv4Address.of(SERVER), m.get(MatchField.IPV4_SRC));
    assertEquals(TransportPort.of(40001), m.get(MatchField.TCP_DST));
    assertTrue(m.isPartiallyMasked(MatchField.OVS_TCP_FLAGS));
    assertEquals(U16.of(0x12), m.getMasked(MatchField.OVS_TCP_FLAGS).getValue());
    assertEquals(U16.of(0x12), m.getMasked(MatchField.OVS_TCP_FLAGS).getMask());
    // On the wire: class 0xffff, field 42, mask bit, length 8, then ONF's experimenter id (the
    // tcp_flags extension Open vSwitch accepts in OpenFlow 1.3), value 0x0012, mask 0x0012.
    ByteBuf buf = Unpooled.buffer();
    add.writeTo(buf);
    byte[] wire = new byte[buf.readableBytes()];
    buf.readBytes(wire);
    byte[] oxm = {
      (byte) 0xff, (byte) 0xff, 0x55, 0x08, 0x4f, 0x4e, 0x46, 0x00, 0x00, 0x12, 0x00, 0x12
    };
    assertTrue(indexOf(wire, oxm) >= 0, "ONF tcp_flags OXM in the flow mod");
    // The copy goes to the controller before the frame is forwarded (or labels pushed).
    List<OFAction> apply = ((OFInstructionApplyActions) add.getInstructions().get(0)).getActions();
    assertEquals(OFPort.CONTROLLER, ((OFActionOutput) apply.get(0)).getPort());
    assertEquals(OFPort.of(3), ((OFActionOutput) apply.get(1)).getPort());
  }

  @Test
  void synEntryMatchesSynWithoutAckOnOneOrEveryPort() {
    Match any = t.match(new FlowMatch.TcpSyn(0));
    assertFalse(any.isExact(MatchField.IN_PORT), "0: every port");
    assertEquals(IpProtocol.TCP, any.get(MatchField.IP_PROTO));
    assertEquals(U16.of(0x02), any.getMasked(MatchField.OVS_TCP_FLAGS).getValue());
    assertEquals(U16.of(0x12), any.getMasked(MatchField.OVS_TCP_FLAGS).getMask());
    Match one = t.match(new FlowMatch.TcpSyn(5));
    assertEquals(OFPort.of(5), one.get(MatchField.IN_PORT));
  }

  private static int indexOf(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  @Test
  void subflowRuleBecomesFlowAddWithFullTcpMatchAndFlowRemovedFlag() {
    long cookie = Cookies.of(Cookies.SUBFLOW, 3, 1, 2);
    FlowRule r =
        rule(
            new FlowMatch.Subflow(CLIENT, SERVER, 40001, 80),
            List.of(new FlowAction.Output(3)),
            0,
            true,
            cookie);
    OFFlowAdd add = t.flowAdd(r);
    assertEquals(OFVersion.OF_13, add.getVersion());
    assertEquals(OFFlowModCommand.ADD, add.getCommand());
    assertEquals(TableId.of(0), add.getTableId());
    assertEquals(40000, add.getPriority());
    assertEquals(10, add.getIdleTimeout());
    assertEquals(0, add.getHardTimeout());
    assertEquals(U64.of(cookie), add.getCookie());
    assertEquals(OFBufferId.NO_BUFFER, add.getBufferId());
    assertEquals(Set.of(OFFlowModFlags.SEND_FLOW_REM), add.getFlags());
    Match m = add.getMatch();
    assertEquals(EthType.IPv4, m.get(MatchField.ETH_TYPE));
    assertEquals(IpProtocol.TCP, m.get(MatchField.IP_PROTO));
    assertEquals(IPv4Address.of("10.0.1.11"), m.get(MatchField.IPV4_SRC));
    assertEquals(IPv4Address.of("10.0.1.1"), m.get(MatchField.IPV4_DST));
    assertEquals(TransportPort.of(40001), m.get(MatchField.TCP_SRC));
    assertEquals(TransportPort.of(80), m.get(MatchField.TCP_DST));
    assertEquals(6, count(m));
    List<OFAction> actions = applied(add.getInstructions());
    assertEquals(1, actions.size());
    OFActionOutput out = assertInstanceOf(OFActionOutput.class, actions.get(0));
    assertEquals(OFPort.of(3), out.getPort());
  }

  @Test
  void ruleWithoutNotifyHasNoFlags() {
    OFFlowAdd add =
        t.flowAdd(
            rule(
                new FlowMatch.Ipv4Destination(SERVER),
                List.of(new FlowAction.Output(1)),
                0,
                false,
                Cookies.of(Cookies.DELIVERY)));
    assertTrue(add.getFlags().isEmpty());
    Match m = add.getMatch();
    assertEquals(EthType.IPv4, m.get(MatchField.ETH_TYPE));
    assertEquals(IPv4Address.of("10.0.1.1"), m.get(MatchField.IPV4_DST));
    assertEquals(2, count(m));
  }

  @Test
  void plainNonTcpRulesNameTheirProtocol() {
    Match m =
        t.flowAdd(
                rule(
                    new FlowMatch.Ipv4Protocol(SERVER, 17),
                    List.of(new FlowAction.Output(1)),
                    60,
                    false,
                    Cookies.of(Cookies.PLAIN)))
            .getMatch();
    assertEquals(EthType.IPv4, m.get(MatchField.ETH_TYPE));
    assertEquals(IpProtocol.UDP, m.get(MatchField.IP_PROTO));
    assertEquals(IPv4Address.of("10.0.1.1"), m.get(MatchField.IPV4_DST));
    assertEquals(3, count(m));
  }

  @Test
  void tableMissSendsWholeFramesToTheController() {
    OFFlowAdd add =
        t.flowAdd(
            new FlowRule(
                1,
                0,
                0,
                new FlowMatch.All(),
                List.of(new FlowAction.ToController()),
                0,
                Cookies.of(Cookies.TABLE_MISS),
                false));
    assertEquals(0, add.getPriority());
    assertEquals(0, add.getIdleTimeout());
    assertEquals(0, count(add.getMatch()));
    OFActionOutput out =
        assertInstanceOf(OFActionOutput.class, applied(add.getInstructions()).get(0));
    assertEquals(OFPort.CONTROLLER, out.getPort());
    assertEquals(0xffff, out.getMaxLen());
  }

  @Test
  void pushedLabelsEndWithTheFirstLabelOnTopThenGoToTheLabelTable() {
    FlowRule r =
        rule(
            new FlowMatch.Subflow(CLIENT, SERVER, 40001, 80),
            List.of(
                new FlowAction.PushLabels(List.of(16003, 20004, 16001)),
                new FlowAction.GotoTable(1)),
            0,
            true,
            1);
    List<OFInstruction> ins = t.flowAdd(r).getInstructions();
    assertEquals(2, ins.size());
    assertInstanceOf(OFInstructionApplyActions.class, ins.get(0));
    OFInstructionGotoTable go = assertInstanceOf(OFInstructionGotoTable.class, ins.get(1));
    assertEquals(TableId.of(1), go.getTableId());

    List<OFAction> actions = applied(ins);
    assertEquals(6, actions.size());
    // Simulate the stack: each push_mpls puts a new entry on top, set_field writes the top.
    List<Long> stack = new ArrayList<>();
    for (OFAction a : actions) {
      if (a instanceof OFActionPushMpls p) {
        assertEquals(EthType.MPLS_UNICAST, p.getEthertype());
        stack.add(0, -1L);
      } else {
        OFActionSetField s = assertInstanceOf(OFActionSetField.class, a);
        OFOxmMplsLabel label = assertInstanceOf(OFOxmMplsLabel.class, s.getField());
        stack.set(0, label.getValue().getValue());
      }
    }
    assertEquals(List.of(16003L, 20004L, 16001L), stack);
    // Push first, then set: a set before any push would write into the IPv4 header.
    assertInstanceOf(OFActionPushMpls.class, actions.get(0));
  }

  @Test
  void labelRulesMatchLabelAndBottomOfStackAndPopToTheRightEthertype() {
    FlowRule bottom =
        rule(
            new FlowMatch.Label(16002, true),
            List.of(new FlowAction.PopLabel(true), new FlowAction.Output(2)),
            1,
            false,
            Cookies.of(Cookies.LABEL));
    OFFlowAdd add = t.flowAdd(bottom);
    assertEquals(TableId.of(1), add.getTableId());
    Match m = add.getMatch();
    assertEquals(EthType.MPLS_UNICAST, m.get(MatchField.ETH_TYPE));
    assertEquals(U32.of(16002), m.get(MatchField.MPLS_LABEL));
    assertEquals(OFBooleanValue.TRUE, m.get(MatchField.MPLS_BOS));
    List<OFAction> a = applied(add.getInstructions());
    assertEquals(EthType.IPv4, assertInstanceOf(OFActionPopMpls.class, a.get(0)).getEthertype());
    assertEquals(OFPort.of(2), assertInstanceOf(OFActionOutput.class, a.get(1)).getPort());

    FlowRule inner =
        rule(
            new FlowMatch.Label(16002, false),
            List.of(new FlowAction.PopLabel(false), new FlowAction.Output(2)),
            1,
            false,
            Cookies.of(Cookies.LABEL));
    OFFlowAdd add2 = t.flowAdd(inner);
    assertEquals(OFBooleanValue.FALSE, add2.getMatch().get(MatchField.MPLS_BOS));
    assertEquals(
        EthType.MPLS_UNICAST,
        assertInstanceOf(OFActionPopMpls.class, applied(add2.getInstructions()).get(0))
            .getEthertype());
  }

  @Test
  void anyMplsGoesToTheLabelTableWithoutApplyActions() {
    OFFlowAdd add =
        t.flowAdd(
            rule(
                new FlowMatch.AnyMpls(),
                List.of(new FlowAction.GotoTable(1)),
                0,
                false,
                Cookies.of(Cookies.LABEL)));
    assertEquals(EthType.MPLS_UNICAST, add.getMatch().get(MatchField.ETH_TYPE));
    assertEquals(1, count(add.getMatch()));
    assertEquals(1, add.getInstructions().size());
    assertEquals(
        TableId.of(1),
        assertInstanceOf(OFInstructionGotoTable.class, add.getInstructions().get(0)).getTableId());
  }

  @Test
  void modificationIsStrictAndRemovalDeletesByCookieInEveryTable() {
    FlowRule r =
        rule(
            new FlowMatch.Subflow(CLIENT, SERVER, 40001, 80),
            List.of(new FlowAction.Output(2)),
            0,
            true,
            Cookies.of(Cookies.SUBFLOW, 1, 0, 0));
    OFFlowModifyStrict mod = t.flowModify(r);
    assertEquals(OFFlowModCommand.MODIFY_STRICT, mod.getCommand());
    assertEquals(40000, mod.getPriority());
    assertEquals(t.match(r.match()), mod.getMatch());
    assertEquals(Set.of(OFFlowModFlags.SEND_FLOW_REM), mod.getFlags());

    long cookie = Cookies.of(Cookies.SUBFLOW, 5, 0, 0);
    OFFlowDelete del = t.flowDelete(new FlowPlan.Removal(3, cookie, Cookies.CONNECTION_MASK));
    assertEquals(OFFlowModCommand.DELETE, del.getCommand());
    assertEquals(TableId.ALL, del.getTableId());
    assertEquals(OFPort.ANY, del.getOutPort());
    assertEquals(OFGroup.ANY, del.getOutGroup());
    assertEquals(U64.of(cookie), del.getCookie());
    assertEquals(U64.of(Cookies.CONNECTION_MASK), del.getCookieMask());
    assertEquals(0, count(del.getMatch()));

    OFFlowDelete all = t.deleteAll();
    assertEquals(U64.ZERO, all.getCookieMask());
    assertEquals(TableId.ALL, all.getTableId());
  }

  @Test
  void packetOutCarriesTheFrameWithoutBuffer() {
    byte[] frame = {1, 2, 3, 4, 5};
    OFPacketOut po =
        t.packetOut(
            new FlowPlan.PacketOut(
                9, FlowAction.PORT_CONTROLLER, frame, List.of(new FlowAction.Output(4))));
    assertEquals(OFBufferId.NO_BUFFER, po.getBufferId());
    assertEquals(OFPort.CONTROLLER, po.getInPort());
    assertArrayEquals(frame, po.getData());
    assertEquals(OFPort.of(4), ((OFActionOutput) po.getActions().get(0)).getPort());

    OFPacketOut table =
        t.packetOut(
            new FlowPlan.PacketOut(
                9, 2, frame, List.of(new FlowAction.Output(FlowAction.PORT_TABLE))));
    assertEquals(OFPort.of(2), table.getInPort());
    assertEquals(OFPort.TABLE, ((OFActionOutput) table.getActions().get(0)).getPort());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            t.packetOut(new FlowPlan.PacketOut(9, 2, frame, List.of(new FlowAction.GotoTable(1)))));
  }

  @Test
  void planIsSplitPerSwitchInOrderAndGlobalRemovalsReachEveryConnectedSwitch() {
    FlowRule a =
        rule(new FlowMatch.Ipv4Destination(SERVER), List.of(new FlowAction.Output(1)), 0, false, 1);
    FlowRule b =
        new FlowRule(
            8,
            0,
            10000,
            new FlowMatch.Ipv4Destination(SERVER),
            List.of(new FlowAction.Output(2)),
            0,
            1,
            false);
    FlowPlan plan =
        new FlowPlan(
            List.of(new FlowPlan.Removal(0, 42, Cookies.EXACT)), List.of(a, b), List.of(b), null);
    Map<Long, List<OFMessage>> mods = t.flowMods(plan, List.of(7L, 8L, 9L));
    assertEquals(List.of(7L, 8L, 9L), List.copyOf(mods.keySet()));
    assertEquals(
        List.of(OFType.FLOW_MOD, OFType.FLOW_MOD),
        mods.get(7L).stream().map(OFMessage::getType).toList());
    assertInstanceOf(OFFlowDelete.class, mods.get(7L).get(0));
    assertInstanceOf(OFFlowAdd.class, mods.get(7L).get(1));
    assertInstanceOf(OFFlowDelete.class, mods.get(8L).get(0));
    assertInstanceOf(OFFlowAdd.class, mods.get(8L).get(1));
    assertInstanceOf(OFFlowModifyStrict.class, mods.get(8L).get(2));
    assertEquals(1, mods.get(9L).size());
    assertNull(mods.get(10L));
  }

  @Test
  void messagesSurviveTheWireFormat() throws Exception {
    FlowRule r =
        rule(
            new FlowMatch.Subflow(CLIENT, SERVER, 40001, 80),
            List.of(new FlowAction.PushLabels(List.of(16003, 16001)), new FlowAction.GotoTable(1)),
            0,
            true,
            Cookies.of(Cookies.SUBFLOW, 1, 2, 3));
    OFMessage m = OfTranslator.withXid(t.flowAdd(r), 77);
    ByteBuf buf = Unpooled.buffer();
    m.writeTo(buf);
    assertEquals(buf.readableBytes(), buf.getUnsignedShort(2));
    OFMessage back = OFFactories.getGenericReader().readFrom(buf);
    assertEquals(m, back);
    assertEquals(77, back.getXid());
  }

  private static int count(Match m) {
    int n = 0;
    for (MatchField<?> f : m.getMatchFields()) {
      n++;
    }
    return n;
  }

  private static List<OFAction> applied(List<OFInstruction> instructions) {
    for (OFInstruction i : instructions) {
      if (i instanceof OFInstructionApplyActions a) {
        return a.getActions();
      }
    }
    return List.of();
  }

  @Test
  void theReflectRuleSendsRequestsBackMarkedAndNothingElse() {
    var f = t.factory();
    OFFlowAdd rule = t.flowAdd(LldpProbes.reflectRule(1));
    assertEquals(TableId.of(0), rule.getTableId());
    assertEquals(LldpProbes.REFLECT_PRIORITY, rule.getPriority());
    assertTrue(
        LldpProbes.REFLECT_PRIORITY
            > org.mpqoe.core.control.ControlConfig.defaults().subflowPriority(),
        "above every rule of the core");
    assertEquals(Cookies.of(Cookies.TABLE_MISS), rule.getCookie().getValue());
    assertEquals(0, rule.getIdleTimeout());
    assertEquals(0, rule.getHardTimeout());
    assertTrue(rule.getFlags().isEmpty(), "no removal notice: nothing counts it");
    assertEquals(
        f.buildMatch()
            .setExact(MatchField.ETH_TYPE, EthType.of(0x88cc))
            .setExact(MatchField.ETH_DST, MacAddress.of("01:80:c2:00:00:03"))
            .build(),
        rule.getMatch());
    assertEquals(
        List.of(
            f.instructions()
                .applyActions(
                    List.of(
                        f.actions().setField(f.oxms().ethDst(MacAddress.of("01:80:c2:00:00:00"))),
                        f.actions().output(OFPort.IN_PORT, OfTranslator.NO_BUFFER_LEN)))),
        rule.getInstructions());
    // The rewritten address no longer matches: a reflected frame is not reflected again.
    assertFalse(rule.getMatch().get(MatchField.ETH_DST).equals(MacAddress.of("01:80:c2:00:00:00")));
  }

  @Test
  void theProbePacketOutLeavesThroughThePort() {
    OFPacketOut po = new OfTranslator().packetOut(LldpProbes.probe(9, 3, 42));
    assertEquals(OFPort.CONTROLLER, po.getInPort());
    assertEquals(
        List.of(OFPort.of(3)),
        po.getActions().stream().map(a -> ((OFActionOutput) a).getPort()).toList());
    assertArrayEquals(LldpProbes.frame(9, 3, 42), po.getData());
  }
}
