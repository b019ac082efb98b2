package org.mpqoe.floodlight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.projectfloodlight.openflow.protocol.OFType.BARRIER_REQUEST;
import static org.projectfloodlight.openflow.protocol.OFType.FLOW_MOD;
import static org.projectfloodlight.openflow.protocol.OFType.PACKET_OUT;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.control.Cookies;
import org.mpqoe.core.control.FlowAction;
import org.mpqoe.core.control.FlowMatch;
import org.mpqoe.core.control.FlowPlan;
import org.mpqoe.core.control.FlowRule;
import org.mpqoe.floodlight.Fakes.FakeSwitch;
import org.mpqoe.ofplan.OfTranslator;
import org.mpqoe.ofplan.PlanApplier;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowDelete;
import org.projectfloodlight.openflow.protocol.OFFlowModifyStrict;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.U64;

/** Floodlight's switches under the shared applier (the applier itself: PlanApplierTest). */
class FloodlightSwitchesTest {
  private static final long COOKIE = Cookies.of(Cookies.SUBFLOW, 7, 0, 1);

  private static FlowRule rule(long dpid, int out) {
    return new FlowRule(
        dpid,
        0,
        40000,
        new FlowMatch.Subflow(1, 2, 3, 4),
        List.of(new FlowAction.Output(out)),
        10,
        COOKIE,
        true);
  }

  private static FlowPlan.PacketOut packetOut(long dpid) {
    return new FlowPlan.PacketOut(
        dpid, 2, new byte[] {1, 2, 3}, List.of(new FlowAction.Output(FlowAction.PORT_TABLE)));
  }

  /** Switches 1 and 4 are in the topology, 99 is not. */
  private static FloodlightSwitches switches(FakeSwitch... switches) {
    return new FloodlightSwitches(Fakes.switchService(switches), d -> d == 1 || d == 4);
  }

  private static PlanApplier writer(FakeSwitch... switches) {
    return new PlanApplier(new OfTranslator(), switches(switches));
  }

  @Test
  void removalsInstallsModificationsThenABarrierAndOnlyThenThePacketOut() {
    FakeSwitch s1 = new FakeSwitch(1);
    FakeSwitch s4 = new FakeSwitch(4);
    FlowPlan plan =
        new FlowPlan(
            List.of(new FlowPlan.Removal(1, COOKIE, Cookies.EXACT)),
            List.of(rule(4, 1), rule(1, 1)),
            List.of(rule(4, 2)),
            packetOut(1));
    writer(s1, s4).apply(plan);

    assertEquals(List.of(), s1.types(), "the packet-out's switch comes last");
    assertEquals(List.of(FLOW_MOD, FLOW_MOD, BARRIER_REQUEST), s4.types());
    assertInstanceOf(OFFlowAdd.class, s4.written.get(0));
    assertInstanceOf(OFFlowModifyStrict.class, s4.written.get(1));
    OFFlowAdd add = (OFFlowAdd) s4.written.get(0);
    assertEquals(U64.of(COOKIE), add.getCookie());
    assertEquals(40000, add.getPriority());

    s4.answerBarriers();
    assertEquals(List.of(FLOW_MOD, FLOW_MOD, BARRIER_REQUEST, PACKET_OUT), s1.types());
    assertInstanceOf(OFFlowDelete.class, s1.written.get(0));
    assertInstanceOf(OFFlowAdd.class, s1.written.get(1));
    OFPacketOut po = (OFPacketOut) s1.written.get(3);
    assertEquals(3, po.getData().length);

    Set<Long> xids = new HashSet<>();
    for (FakeSwitch s : List.of(s1, s4)) {
      for (OFMessage m : s.written) {
        assertNotEquals(0, m.getXid(), m.toString());
        assertTrue(xids.add(m.getXid()), "xid " + m.getXid() + " used twice");
      }
    }
  }

  @Test
  void aFailedBarrierStillReleasesThePacketOut() {
    FakeSwitch s1 = new FakeSwitch(1);
    writer(s1).apply(new FlowPlan(List.of(), List.of(rule(1, 1)), List.of(), packetOut(1)));
    s1.barriers.get(0).setException(new RuntimeException("switch went away"));
    assertEquals(List.of(FLOW_MOD, BARRIER_REQUEST, PACKET_OUT), s1.types());
  }

  @Test
  void aRemovalForEverySwitchGoesToTheTopologysSwitchesOnly() {
    FakeSwitch s1 = new FakeSwitch(1);
    FakeSwitch s4 = new FakeSwitch(4);
    FakeSwitch s99 = new FakeSwitch(99);
    writer(s1, s4, s99)
        .apply(
            new FlowPlan(
                List.of(new FlowPlan.Removal(0, COOKIE, Cookies.CONNECTION_MASK)),
                List.of(),
                List.of(),
                null));
    assertEquals(List.of(FLOW_MOD, BARRIER_REQUEST), s1.types());
    assertEquals(List.of(FLOW_MOD, BARRIER_REQUEST), s4.types());
    assertEquals(List.of(), s99.types());
    OFFlowDelete d = (OFFlowDelete) s4.written.get(0);
    assertEquals(U64.of(Cookies.CONNECTION_MASK), d.getCookieMask());
  }

  @Test
  void switchesThatAreMissingOrNotOpenFlow13AreSkipped() {
    FakeSwitch s1 = new FakeSwitch(1);
    FakeSwitch old = new FakeSwitch(4, OFVersion.OF_10);
    PlanApplier w = writer(s1, old);
    assertEquals(null, switches(s1, old).get(4), "not OpenFlow 1.3");
    w.apply(new FlowPlan(List.of(), List.of(rule(4, 1), rule(1, 1)), List.of(), packetOut(4)));
    assertEquals(List.of(), old.types(), "an OpenFlow 1.0 switch gets no 1.3 messages");
    assertEquals(List.of(FLOW_MOD, BARRIER_REQUEST), s1.types());
    s1.answerBarriers();
    assertEquals(List.of(), old.types(), "its packet-out is dropped too");

    FakeSwitch alone = new FakeSwitch(1);
    writer(alone).apply(new FlowPlan(List.of(), List.of(rule(4, 1)), List.of(), packetOut(1)));
    assertEquals(
        List.of(PACKET_OUT), alone.types(), "no barrier to wait for: the packet-out goes now");
  }

  @Test
  void installWritesTheRulesThenTheRuntimesFlowModsThenABarrier() {
    FakeSwitch s1 = new FakeSwitch(1);
    var extra = s1.factory.buildFlowDelete().build();
    AtomicBoolean done = new AtomicBoolean();
    writer(s1)
        .install(
            FloodlightSwitches.of(s1.sw),
            List.of(),
            List.of(rule(1, 1), rule(1, 2)),
            List.of(extra),
            () -> done.set(true));
    assertEquals(List.of(FLOW_MOD, FLOW_MOD, FLOW_MOD, BARRIER_REQUEST), s1.types());
    assertInstanceOf(OFFlowDelete.class, s1.written.get(2), "the extra flow mods come last");
    assertFalse(done.get());
    s1.answerBarriers();
    assertTrue(done.get());
  }
}
