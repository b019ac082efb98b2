package org.mpqoe.ofplan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.projectfloodlight.openflow.protocol.OFType.BARRIER_REQUEST;
import static org.projectfloodlight.openflow.protocol.OFType.FLOW_MOD;
import static org.projectfloodlight.openflow.protocol.OFType.PACKET_OUT;
import static org.projectfloodlight.openflow.protocol.OFType.SET_CONFIG;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.control.Cookies;
import org.mpqoe.core.control.FlowAction;
import org.mpqoe.core.control.FlowMatch;
import org.mpqoe.core.control.FlowPlan;
import org.mpqoe.core.control.FlowRule;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowDelete;
import org.projectfloodlight.openflow.protocol.OFFlowModifyStrict;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.types.U64;

class PlanApplierTest {
  private static final long COOKIE = Cookies.of(Cookies.SUBFLOW, 7, 0, 1);

  /** A switch that records what it is sent; the test completes its barriers. */
  static final class FakeSwitch implements OfSwitch {
    final List<OFMessage> sent = new ArrayList<>();
    final List<Runnable> barriers = new ArrayList<>();

    @Override
    public void send(List<? extends OFMessage> messages) {
      sent.addAll(messages);
    }

    @Override
    public void barrier(Runnable done) {
      sent.add(new OfTranslator().factory().barrierRequest());
      barriers.add(done);
    }

    List<OFType> types() {
      return sent.stream().map(OFMessage::getType).toList();
    }

    void completeBarriers() {
      List<Runnable> open = new ArrayList<>(barriers);
      barriers.clear();
      open.forEach(Runnable::run);
    }
  }

  /** Connected switches by DPID; {@code managed} lists the ones a removal for all goes to. */
  private static PlanApplier applier(Map<Long, FakeSwitch> connected, List<Long> managed) {
    return new PlanApplier(
        new OfTranslator(),
        new PlanApplier.Switches() {
          @Override
          public OfSwitch get(long dpid) {
            return connected.get(dpid);
          }

          @Override
          public Collection<Long> managed() {
            return managed;
          }
        });
  }

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

  @Test
  void thePacketOutsSwitchGetsItsRulesLastThenABarrierThenThePacketOut() {
    // The held packet's first hop: were its rule installed with the others, a retransmission of
    // the packet would pass it while the original still waits for the farther switches.
    FakeSwitch first = new FakeSwitch();
    FakeSwitch mid = new FakeSwitch();
    FakeSwitch far = new FakeSwitch();
    applier(Map.of(1L, first, 2L, mid, 3L, far), List.of(1L, 2L, 3L))
        .apply(
            new FlowPlan(
                List.of(), List.of(rule(3, 1), rule(2, 1), rule(1, 1)), List.of(), packetOut(1)));
    assertEquals(List.of(), first.types(), "nothing on the first hop before the others confirmed");
    assertEquals(List.of(FLOW_MOD, BARRIER_REQUEST), mid.types());
    far.completeBarriers();
    assertEquals(List.of(), first.types());
    mid.completeBarriers();
    assertEquals(List.of(FLOW_MOD, BARRIER_REQUEST, PACKET_OUT), first.types());
    first.completeBarriers(); // its barrier's reply releases nothing more
    assertEquals(List.of(FLOW_MOD, BARRIER_REQUEST, PACKET_OUT), first.types());
    assertEquals(List.of(FLOW_MOD, BARRIER_REQUEST), far.types(), "no packet-out on the others");
  }

  @Test
  void removalsInstallsModificationsThenABarrierAndOnlyThenThePacketOut() {
    FakeSwitch s1 = new FakeSwitch();
    FakeSwitch s4 = new FakeSwitch();
    Map<Long, FakeSwitch> connected = new LinkedHashMap<>(Map.of(1L, s1, 4L, s4));
    FlowPlan plan =
        new FlowPlan(
            List.of(new FlowPlan.Removal(1, COOKIE, Cookies.EXACT)),
            List.of(rule(4, 1), rule(1, 1)),
            List.of(rule(4, 2)),
            packetOut(1));
    applier(connected, List.of(1L, 4L)).apply(plan);

    assertEquals(List.of(), s1.types(), "the packet-out's switch comes last");
    assertEquals(List.of(FLOW_MOD, FLOW_MOD, BARRIER_REQUEST), s4.types());
    assertInstanceOf(OFFlowAdd.class, s4.sent.get(0));
    assertInstanceOf(OFFlowModifyStrict.class, s4.sent.get(1));
    OFFlowAdd add = (OFFlowAdd) s4.sent.get(0);
    assertEquals(U64.of(COOKIE), add.getCookie());
    assertEquals(40000, add.getPriority());

    s4.completeBarriers();
    assertEquals(List.of(FLOW_MOD, FLOW_MOD, BARRIER_REQUEST, PACKET_OUT), s1.types());
    assertInstanceOf(OFFlowDelete.class, s1.sent.get(0));
    assertInstanceOf(OFFlowAdd.class, s1.sent.get(1));
    assertEquals(3, ((OFPacketOut) s1.sent.get(3)).getData().length);
    assertEquals(List.of(FLOW_MOD, FLOW_MOD, BARRIER_REQUEST), s4.types(), "no packet-out on s4");
  }

  @Test
  void aRemovalForEverySwitchGoesToTheManagedSwitchesOnly() {
    FakeSwitch s1 = new FakeSwitch();
    FakeSwitch s4 = new FakeSwitch();
    FakeSwitch s99 = new FakeSwitch();
    applier(Map.of(1L, s1, 4L, s4, 99L, s99), List.of(1L, 4L))
        .apply(
            new FlowPlan(
                List.of(new FlowPlan.Removal(0, COOKIE, Cookies.CONNECTION_MASK)),
                List.of(),
                List.of(),
                null));
    assertEquals(List.of(FLOW_MOD, BARRIER_REQUEST), s1.types());
    assertEquals(List.of(FLOW_MOD, BARRIER_REQUEST), s4.types());
    assertEquals(List.of(), s99.types());
    assertEquals(U64.of(Cookies.CONNECTION_MASK), ((OFFlowDelete) s4.sent.get(0)).getCookieMask());
  }

  @Test
  void switchesThatAreNotConnectedAreSkippedAndTheirPacketOutDropped() {
    FakeSwitch s1 = new FakeSwitch();
    PlanApplier a = applier(Map.of(1L, s1), List.of(1L));
    a.apply(new FlowPlan(List.of(), List.of(rule(4, 1), rule(1, 1)), List.of(), packetOut(4)));
    assertEquals(List.of(FLOW_MOD, BARRIER_REQUEST), s1.types(), "only s1's rule");
    s1.completeBarriers();
    assertEquals(List.of(FLOW_MOD, BARRIER_REQUEST), s1.types(), "s4's packet-out is dropped");

    FakeSwitch alone = new FakeSwitch();
    applier(Map.of(1L, alone), List.of(1L))
        .apply(new FlowPlan(List.of(), List.of(rule(4, 1)), List.of(), packetOut(1)));
    assertEquals(
        List.of(PACKET_OUT), alone.types(), "no barrier to wait for: the packet-out goes now");
  }

  @Test
  void aBarrierThatFailsStillReleasesThePacketOutOnce() {
    // A runtime completes a barrier whose switch went away (OfSwitch.barrier's contract): the
    // packet-out then goes out once, not once per completion.
    FakeSwitch s1 = new FakeSwitch();
    FakeSwitch s2 = new FakeSwitch();
    applier(Map.of(1L, s1, 2L, s2), List.of(1L, 2L))
        .apply(new FlowPlan(List.of(), List.of(rule(1, 1), rule(2, 1)), List.of(), packetOut(1)));
    s2.completeBarriers();
    s1.completeBarriers();
    assertEquals(1, s1.sent.stream().filter(m -> m.getType() == PACKET_OUT).count());
  }

  @Test
  void timingsArriveOnceThePacketOutWentOut() {
    FakeSwitch s1 = new FakeSwitch();
    FakeSwitch s2 = new FakeSwitch();
    List<PlanApplier.Applied> got = new ArrayList<>();
    applier(Map.of(1L, s1, 2L, s2), List.of(1L, 2L))
        .apply(
            new FlowPlan(
                List.of(), List.of(rule(2, 1), rule(2, 2), rule(1, 1)), List.of(), packetOut(1)),
            got::add);
    s1.completeBarriers();
    assertTrue(got.isEmpty(), "s2's barrier is still open");
    s2.completeBarriers();
    assertEquals(1, got.size());
    PlanApplier.Applied a = got.get(0);
    assertEquals(2, a.switches());
    assertEquals(3, a.flowMods());
    assertTrue(a.sentNanos() <= a.confirmedNanos() && a.confirmedNanos() <= a.packetOutNanos());

    // Nothing to wait for and a packet-out for a switch that is gone: at once, no packet-out.
    List<PlanApplier.Applied> alone = new ArrayList<>();
    applier(Map.of(), List.of())
        .apply(new FlowPlan(List.of(), List.of(), List.of(), packetOut(9)), alone::add);
    assertEquals(1, alone.size());
    assertEquals(0, alone.get(0).switches());
    assertEquals(-1, alone.get(0).packetOutNanos());
  }

  @Test
  void anEmptyPlanSendsNothing() {
    FakeSwitch s1 = new FakeSwitch();
    PlanApplier a = applier(Map.of(1L, s1), List.of(1L));
    a.apply(null);
    a.apply(new FlowPlan(List.of(), List.of(), List.of(), null));
    assertEquals(List.of(), s1.types());
  }

  @Test
  void installSendsBeforeRulesAfterThenABarrier() {
    FakeSwitch s1 = new FakeSwitch();
    PlanApplier a = applier(Map.of(1L, s1), List.of(1L));
    OfTranslator t = a.translator();
    AtomicInteger done = new AtomicInteger();
    a.install(
        s1,
        List.of(t.factory().buildSetConfig().build(), t.deleteAll()),
        List.of(rule(1, 1), rule(1, 2)),
        List.of(t.factory().buildFlowDelete().build()),
        done::incrementAndGet);
    assertEquals(
        List.of(SET_CONFIG, FLOW_MOD, FLOW_MOD, FLOW_MOD, FLOW_MOD, BARRIER_REQUEST), s1.types());
    assertInstanceOf(OFFlowAdd.class, s1.sent.get(2));
    assertInstanceOf(OFFlowDelete.class, s1.sent.get(4), "the runtime's own flow mods come last");
    assertEquals(0, done.get());
    s1.completeBarriers();
    assertEquals(1, done.get());
  }
}
