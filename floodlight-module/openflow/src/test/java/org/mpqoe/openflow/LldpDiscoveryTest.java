package org.mpqoe.openflow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.control.ControlConfig;
import org.mpqoe.core.control.Cookies;
import org.mpqoe.core.control.DiscoveryConfig;
import org.mpqoe.core.topology.NetworkView;
import org.mpqoe.core.topology.NetworkView.LinkView;
import org.mpqoe.core.topology.NetworkView.PortView;
import org.mpqoe.core.topology.NetworkView.SwitchView;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyBuilder;
import org.mpqoe.ofplan.OfTranslator;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.action.OFActionOutput;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;

class LldpDiscoveryTest {
  private static final long SECOND = 1_000_000_000L;
  private final LldpDiscovery d = new LldpDiscovery(3 * SECOND);

  @Test
  void theProbeIsAnLldpFrameWithDpidPortAndSendTime() {
    byte[] f = LldpDiscovery.frame(0x0102030405060708L, 0x10002, 0x1122334455667788L);
    assertEquals(
        "0180c200000e" // nearest bridge
            + "030405060708" // source: the dpid's low 48 bits
            + "88cc"
            + "0207"
            + "04"
            + "030405060708" // chassis id, MAC subtype
            + "0405"
            + "02"
            + "00010002" // port id, port component subtype, 32-bit port
            + "0602"
            + "0078" // TTL 120 s
            + "fe0c"
            + "0026e1"
            + "00"
            + "0102030405060708" // dpid
            + "fe0c"
            + "0026e1"
            + "6d"
            + "1122334455667788" // send time
            + "0000",
        HexFormat.of().formatHex(f));
    assertEquals(
        Optional.of(
            new LldpDiscovery.Probe(
                0x0102030405060708L, 0x10002, OptionalLong.of(0x1122334455667788L))),
        LldpDiscovery.parse(f));
  }

  @Test
  void anythingButOurProbeParsesToNothing() {
    byte[] probe = LldpDiscovery.frame(5, 2, 0);
    assertTrue(LldpDiscovery.isLldp(probe));
    byte[] ipv4 = probe.clone();
    ipv4[12] = 0x08;
    ipv4[13] = 0x00;
    assertFalse(LldpDiscovery.isLldp(ipv4));
    assertEquals(Optional.empty(), LldpDiscovery.parse(ipv4));
    byte[] hostLldp = Arrays.copyOf(probe, 14 + 9 + 7 + 4);
    assertTrue(LldpDiscovery.isLldp(hostLldp));
    assertEquals(Optional.empty(), LldpDiscovery.parse(hostLldp), "no dpid TLV");
    for (int cut = 0; cut < 14 + 9 + 7 + 4 + 14; cut++) {
      assertEquals(
          Optional.empty(), LldpDiscovery.parse(Arrays.copyOf(probe, cut)), "cut at " + cut);
    }
    byte[] lying = probe.clone();
    lying[14 + 9 + 7 + 4 + 1] = (byte) 0xff; // the dpid TLV claims more bytes than there are
    assertEquals(Optional.empty(), LldpDiscovery.parse(lying));
  }

  @Test
  void aProbeSeenOnAnotherSwitchIsALinkWithItsLatency() {
    var first = d.received(2, 3, LldpDiscovery.frame(1, 4, 10 * SECOND), 10 * SECOND + 2_500_000);
    assertEquals(
        Optional.of(
            new LldpDiscovery.Update(LldpDiscovery.Change.ADDED, new LinkView(1, 4, 2, 3, 2.5))),
        first);
    var again = d.received(2, 3, LldpDiscovery.frame(1, 4, 11 * SECOND), 11 * SECOND + 1_000_000);
    assertEquals(LldpDiscovery.Change.REFRESHED, again.orElseThrow().change());
    assertEquals(List.of(new LinkView(1, 4, 2, 3, 1.0)), d.links());
  }

  @Test
  void aProbeBackOnItsOwnPortOrNotOursChangesNothing() {
    assertEquals(Optional.empty(), d.received(1, 4, LldpDiscovery.frame(1, 4, 0), 1));
    assertEquals(Optional.empty(), d.received(1, 4, new byte[60], 1));
    assertTrue(d.links().isEmpty());
  }

  @Test
  void aRecabledPortHasOnlyItsNewPeer() {
    d.received(2, 3, LldpDiscovery.frame(1, 4, 0), 1);
    var moved = d.received(3, 1, LldpDiscovery.frame(1, 4, 0), 1);
    assertEquals(LldpDiscovery.Change.ADDED, moved.orElseThrow().change());
    d.received(3, 1, LldpDiscovery.frame(7, 7, 0), 1);
    assertEquals(List.of(new LinkView(7, 7, 3, 1, 1e-6)), d.links());
  }

  @Test
  void linksExpireAndFollowPortsAndSwitches() {
    d.received(2, 1, LldpDiscovery.frame(1, 1, 0), 0);
    d.received(1, 1, LldpDiscovery.frame(2, 1, 0), 0);
    d.received(3, 1, LldpDiscovery.frame(2, 2, 2 * SECOND), 2 * SECOND);
    d.received(2, 2, LldpDiscovery.frame(3, 1, 2 * SECOND), 2 * SECOND);
    assertEquals(2, d.expire(4 * SECOND).size(), "the 1-2 link was last seen 4 s ago");
    assertEquals(
        List.of(new LinkView(2, 2, 3, 1, 0), new LinkView(3, 1, 2, 2, 0)), d.portDown(2, 2));
    assertTrue(d.links().isEmpty());
    d.received(3, 1, LldpDiscovery.frame(2, 2, 0), 0);
    assertEquals(1, d.switchGone(3).size());
    assertThrows(IllegalArgumentException.class, () -> new LldpDiscovery(0));
  }

  @Test
  void reflectProbesAreMarkedByTheirAddressAndNeverMakeALink() {
    byte[] request = LldpDiscovery.frame(LldpDiscovery.Kind.REFLECT, 1, 4, 10 * SECOND);
    byte[] back = LldpDiscovery.frame(LldpDiscovery.Kind.REFLECTED, 1, 4, 10 * SECOND);
    assertEquals("0180c2000003", HexFormat.of().formatHex(request, 0, 6));
    assertEquals("0180c2000000", HexFormat.of().formatHex(back, 0, 6));
    assertArrayEquals(
        Arrays.copyOfRange(LldpDiscovery.frame(1, 4, 10 * SECOND), 6, request.length),
        Arrays.copyOfRange(request, 6, request.length),
        "the same LLDPDU as a one-way probe");
    assertEquals(
        Optional.of(LldpDiscovery.Kind.ONE_WAY), LldpDiscovery.kind(LldpDiscovery.frame(1, 4, 0)));
    assertEquals(Optional.of(LldpDiscovery.Kind.REFLECT), LldpDiscovery.kind(request));
    assertEquals(Optional.of(LldpDiscovery.Kind.REFLECTED), LldpDiscovery.kind(back));
    // Neither kind makes a link, wherever it shows up.
    assertEquals(Optional.empty(), d.received(2, 3, request, 10 * SECOND + 1));
    assertEquals(Optional.empty(), d.received(2, 3, back, 10 * SECOND + 1));
    assertEquals(Optional.empty(), d.received(1, 4, back, 10 * SECOND + 1));
    assertTrue(d.links().isEmpty());
    // Back where it left: a round trip; elsewhere, or unreflected, or not ours: nothing.
    assertEquals(7.5, LldpDiscovery.reflectedIn(1, 4, back, 10 * SECOND + 7_500_000).orElseThrow());
    assertTrue(LldpDiscovery.reflectedIn(1, 5, back, 10 * SECOND + 1).isEmpty(), "another port");
    assertTrue(LldpDiscovery.reflectedIn(2, 4, back, 10 * SECOND + 1).isEmpty(), "another switch");
    assertTrue(LldpDiscovery.reflectedIn(1, 4, request, 10 * SECOND + 1).isEmpty(), "unreflected");
    assertTrue(
        LldpDiscovery.reflectedIn(1, 4, LldpDiscovery.frame(1, 4, 0), 1).isEmpty(), "one-way");
    assertTrue(LldpDiscovery.reflectedIn(1, 4, back, SECOND).isEmpty(), "before it was sent");
  }

  @Test
  void theReflectRuleSendsRequestsBackMarkedAndNothingElse() {
    var f = FakeSwitch.OF;
    OFFlowAdd rule = LldpDiscovery.reflectRule(f);
    assertEquals(TableId.of(0), rule.getTableId());
    assertEquals(LldpDiscovery.REFLECT_PRIORITY, rule.getPriority());
    assertTrue(
        LldpDiscovery.REFLECT_PRIORITY > ControlConfig.defaults().subflowPriority(),
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
                        f.actions().output(OFPort.IN_PORT, 0)))),
        rule.getInstructions());
    // The rewritten address no longer matches: a reflected frame is not reflected again.
    assertFalse(rule.getMatch().get(MatchField.ETH_DST).equals(MacAddress.of("01:80:c2:00:00:00")));
  }

  @Test
  void theProbePacketOutLeavesThroughThePort() {
    OFPacketOut po = new OfTranslator().packetOut(LldpDiscovery.probe(9, 3, 42));
    assertEquals(OFPort.CONTROLLER, po.getInPort());
    assertEquals(
        List.of(OFPort.of(3)),
        po.getActions().stream().map(a -> ((OFActionOutput) a).getPort()).toList());
    assertArrayEquals(LldpDiscovery.frame(9, 3, 42), po.getData());
  }

  @Test
  void probesBetweenThreeSwitchesBecomeATriangleTopology() {
    // s1:1-s2:1, s2:2-s3:1, s3:2-s1:2; every port probed, each probe seen by the switch behind it.
    long[][] cables = {{1, 1, 2, 1}, {2, 2, 3, 1}, {3, 2, 1, 2}};
    for (long[] c : cables) {
      d.received(c[2], (int) c[3], LldpDiscovery.frame(c[0], (int) c[1], 0), 1_000_000);
      d.received(c[0], (int) c[1], LldpDiscovery.frame(c[2], (int) c[3], 0), 1_000_000);
    }
    List<SwitchView> switches =
        List.of(
            new SwitchView(
                1, List.of(new PortView(1, 1_000_000, true), new PortView(2, 1_000_000, true))),
            new SwitchView(
                2, List.of(new PortView(1, 1_000_000, true), new PortView(2, 1_000_000, true))),
            new SwitchView(
                3, List.of(new PortView(1, 1_000_000, true), new PortView(2, 1_000_000, true))));
    Topology t =
        TopologyBuilder.build(
                new NetworkView(switches, d.links(), List.of()),
                DiscoveryConfig.DEFAULTS.topologyOptions(true))
            .topology();
    assertEquals(3, t.links().size());
    t.links().forEach(l -> assertEquals(1000.0, l.capacityMbps()));
    t.links().forEach(l -> assertEquals(1.0, l.delayMs()));
  }
}
