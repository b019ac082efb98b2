package org.mpqoe.openflow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.control.DiscoveryConfig;
import org.mpqoe.core.control.LldpProbes;
import org.mpqoe.core.topology.NetworkView;
import org.mpqoe.core.topology.NetworkView.LinkView;
import org.mpqoe.core.topology.NetworkView.PortView;
import org.mpqoe.core.topology.NetworkView.SwitchView;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyBuilder;

class LldpDiscoveryTest {
  private static final long SECOND = 1_000_000_000L;
  private final LldpDiscovery d = new LldpDiscovery(3 * SECOND);

  @Test
  void aProbeSeenOnAnotherSwitchIsALinkWithItsLatency() {
    var first = d.received(2, 3, LldpProbes.frame(1, 4, 10 * SECOND), 10 * SECOND + 2_500_000);
    assertEquals(
        Optional.of(
            new LldpDiscovery.Update(LldpDiscovery.Change.ADDED, new LinkView(1, 4, 2, 3, 2.5))),
        first);
    var again = d.received(2, 3, LldpProbes.frame(1, 4, 11 * SECOND), 11 * SECOND + 1_000_000);
    assertEquals(LldpDiscovery.Change.REFRESHED, again.orElseThrow().change());
    assertEquals(List.of(new LinkView(1, 4, 2, 3, 1.0)), d.links());
  }

  @Test
  void aProbeBackOnItsOwnPortOrNotOursChangesNothing() {
    assertEquals(Optional.empty(), d.received(1, 4, LldpProbes.frame(1, 4, 0), 1));
    assertEquals(Optional.empty(), d.received(1, 4, new byte[60], 1));
    assertTrue(d.links().isEmpty());
  }

  @Test
  void aRecabledPortHasOnlyItsNewPeer() {
    d.received(2, 3, LldpProbes.frame(1, 4, 0), 1);
    var moved = d.received(3, 1, LldpProbes.frame(1, 4, 0), 1);
    assertEquals(LldpDiscovery.Change.ADDED, moved.orElseThrow().change());
    d.received(3, 1, LldpProbes.frame(7, 7, 0), 1);
    assertEquals(List.of(new LinkView(7, 7, 3, 1, 1e-6)), d.links());
  }

  @Test
  void linksExpireAndFollowPortsAndSwitches() {
    d.received(2, 1, LldpProbes.frame(1, 1, 0), 0);
    d.received(1, 1, LldpProbes.frame(2, 1, 0), 0);
    d.received(3, 1, LldpProbes.frame(2, 2, 2 * SECOND), 2 * SECOND);
    d.received(2, 2, LldpProbes.frame(3, 1, 2 * SECOND), 2 * SECOND);
    assertEquals(2, d.expire(4 * SECOND).size(), "the 1-2 link was last seen 4 s ago");
    assertEquals(
        List.of(new LinkView(2, 2, 3, 1, 0), new LinkView(3, 1, 2, 2, 0)), d.portDown(2, 2));
    assertTrue(d.links().isEmpty());
    d.received(3, 1, LldpProbes.frame(2, 2, 0), 0);
    assertEquals(1, d.switchGone(3).size());
    assertThrows(IllegalArgumentException.class, () -> new LldpDiscovery(0));
  }

  @Test
  void reflectProbesAreMarkedByTheirAddressAndNeverMakeALink() {
    byte[] request = LldpProbes.frame(LldpProbes.Kind.REFLECT, 1, 4, 10 * SECOND);
    byte[] back = LldpProbes.frame(LldpProbes.Kind.REFLECTED, 1, 4, 10 * SECOND);
    assertEquals("0180c2000003", HexFormat.of().formatHex(request, 0, 6));
    assertEquals("0180c2000000", HexFormat.of().formatHex(back, 0, 6));
    assertArrayEquals(
        Arrays.copyOfRange(LldpProbes.frame(1, 4, 10 * SECOND), 6, request.length),
        Arrays.copyOfRange(request, 6, request.length),
        "the same LLDPDU as a one-way probe");
    assertEquals(Optional.of(LldpProbes.Kind.ONE_WAY), LldpProbes.kind(LldpProbes.frame(1, 4, 0)));
    assertEquals(Optional.of(LldpProbes.Kind.REFLECT), LldpProbes.kind(request));
    assertEquals(Optional.of(LldpProbes.Kind.REFLECTED), LldpProbes.kind(back));
    // Neither kind makes a link, wherever it shows up.
    assertEquals(Optional.empty(), d.received(2, 3, request, 10 * SECOND + 1));
    assertEquals(Optional.empty(), d.received(2, 3, back, 10 * SECOND + 1));
    assertEquals(Optional.empty(), d.received(1, 4, back, 10 * SECOND + 1));
    assertTrue(d.links().isEmpty());
    // Back where it left: a round trip; elsewhere, or unreflected, or not ours: nothing.
    assertEquals(7.5, LldpProbes.reflectedIn(1, 4, back, 10 * SECOND + 7_500_000).orElseThrow());
    assertTrue(LldpProbes.reflectedIn(1, 5, back, 10 * SECOND + 1).isEmpty(), "another port");
    assertTrue(LldpProbes.reflectedIn(2, 4, back, 10 * SECOND + 1).isEmpty(), "another switch");
    assertTrue(LldpProbes.reflectedIn(1, 4, request, 10 * SECOND + 1).isEmpty(), "unreflected");
    assertTrue(LldpProbes.reflectedIn(1, 4, LldpProbes.frame(1, 4, 0), 1).isEmpty(), "one-way");
    assertTrue(LldpProbes.reflectedIn(1, 4, back, SECOND).isEmpty(), "before it was sent");
  }

  @Test
  void probesBetweenThreeSwitchesBecomeATriangleTopology() {
    // s1:1-s2:1, s2:2-s3:1, s3:2-s1:2; every port probed, each probe seen by the switch behind it.
    long[][] cables = {{1, 1, 2, 1}, {2, 2, 3, 1}, {3, 2, 1, 2}};
    for (long[] c : cables) {
      d.received(c[2], (int) c[3], LldpProbes.frame(c[0], (int) c[1], 0), 1_000_000);
      d.received(c[0], (int) c[1], LldpProbes.frame(c[2], (int) c[3], 0), 1_000_000);
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
