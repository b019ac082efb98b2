package org.mpqoe.core.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.control.DiscoveryConfig;
import org.mpqoe.core.path.CandidatePaths;
import org.mpqoe.core.topology.DescriptorCheck.Kind;
import org.mpqoe.core.topology.NetworkView.AttachmentView;

class TopologyBuilderTest {
  private final Topology threePath = TopologyLoader.load("three-path");
  private final TopologyBuilder.Options options =
      DiscoveryConfig.DEFAULTS.withServers(List.of("10.0.1.1")).topologyOptions(false);

  private static List<String> linkNames(Topology t) {
    return t.links().stream()
        .map(l -> l.a().name() + ":" + l.portA() + "-" + l.b().name() + ":" + l.portB())
        .toList();
  }

  @Test
  void withoutADescriptorTheNetworkIsTheTopology() {
    NetworkView v = NetworkViews.cabled(threePath, 100_000).freeze();
    TopologyBuilder.Built b = TopologyBuilder.build(v, options);
    Topology t = b.topology();
    assertTrue(b.mismatches().isEmpty());
    assertEquals(
        List.of("s1", "s2", "s3", "s4"), t.switches().stream().map(SwitchNode::name).toList());
    assertEquals(List.of("s1:1-s4:1", "s2:1-s4:2", "s3:1-s4:3"), linkNames(t));
    t.links().forEach(l -> assertEquals(100.0, l.capacityMbps()));
    assertEquals(List.of(1.0, 2.0, 3.0), t.links().stream().map(Link::delayMs).toList());

    assertEquals(1, t.servers().size());
    Host server = t.servers().get(0);
    assertEquals("10.0.1.1", server.interfaces().get(0).ip());
    assertEquals(4, server.firstHop().dpid());
    assertEquals(4, server.interfaces().get(0).port());
    assertEquals(1, t.clients().size());
    Host client = t.clients().get(0);
    assertEquals(
        List.of("10.0.1.11", "10.0.2.11", "10.0.3.11"),
        client.interfaces().stream().map(HostInterface::ip).toList());
    assertEquals(
        List.of(1L, 2L, 3L), client.interfaces().stream().map(f -> f.attachment().dpid()).toList());
    assertEquals(
        List.of("s1", "s2", "s3"), t.clientSwitches().stream().map(SwitchNode::name).toList());

    CandidatePaths paths = new CandidatePaths(t, 4);
    assertEquals(
        1, paths.between(client.interfaces().get(1).attachment(), server.firstHop()).size());
  }

  @Test
  void aPortWithoutSpeedGetsTheDefaultCapacityAndTheSlowerEndWins() {
    var e = NetworkViews.cabled(threePath, 100_000);
    e.port(1, 1, 0).port(4, 2, 20_000);
    Topology t = TopologyBuilder.build(e.freeze(), options).topology();
    assertEquals(List.of(1000.0, 20.0, 100.0), t.links().stream().map(Link::capacityMbps).toList());
  }

  @Test
  void perAddressGroupingMakesOneHostPerAddress() {
    NetworkView v = NetworkViews.cabled(threePath, 100_000).freeze();
    var perAddress =
        new TopologyBuilder.Options(
            "net", 100, Set.of("10.0.1.1"), TopologyBuilder.Grouping.PER_ADDRESS);
    Topology t = TopologyBuilder.build(v, perAddress).topology();
    assertEquals("net", t.name());
    assertEquals(3, t.clients().size());
    t.clients().forEach(h -> assertEquals(1, h.interfaces().size()));
  }

  @Test
  void hostsSeenOnLinkPortsOrUnknownSwitchesAreLeftOut() {
    var e = NetworkViews.cabled(threePath, 100_000);
    e.attachments.add(new AttachmentView("10.0.9.50", "02:00:00:00:09:32", 4, 1));
    e.attachments.add(new AttachmentView("10.0.9.51", "02:00:00:00:09:33", 77, 1));
    Topology t = TopologyBuilder.build(e.freeze(), options).topology();
    assertEquals(
        Set.of("10.0.1.1", "10.0.1.11", "10.0.2.11", "10.0.3.11"),
        new java.util.HashSet<>(
            t.hosts().stream()
                .flatMap(h -> h.interfaces().stream())
                .map(HostInterface::ip)
                .toList()));
  }

  @Test
  void theOrderOfTheViewDoesNotChangeTheTopology() {
    var e = NetworkViews.cabled(threePath, 100_000);
    Topology first = TopologyBuilder.build(e.freeze(), options).topology();
    Random rnd = new Random(3);
    for (int i = 0; i < 10; i++) {
      Collections.shuffle(e.links, rnd);
      Collections.shuffle(e.attachments, rnd);
      Topology again = TopologyBuilder.build(e.freeze(), options).topology();
      assertEquals(first.links(), again.links());
      assertEquals(first.hosts(), again.hosts());
      assertEquals(first.switches(), again.switches());
    }
  }

  @Test
  void theDescriptorOverlaysNamesValuesAndHosts() {
    NetworkView v = NetworkViews.cabled(threePath, 100_000).freeze();
    TopologyBuilder.Built b = TopologyBuilder.build(v, Optional.of(threePath), options);
    assertTrue(b.mismatches().isEmpty(), b.mismatches().toString());
    Topology t = b.topology();
    assertEquals("three-path", t.name());
    assertEquals(threePath.links(), t.links());
    assertEquals(threePath.hosts(), t.hosts());
    assertEquals(threePath.switches(), t.switches());
  }

  @Test
  void withADescriptorOnlyDiscoveredLinksAreRoutedAndOtherPortsAreUsed() {
    var e = NetworkViews.cabled(threePath, 100_000).unplug(2, 4).unplug(1, 4);
    e.link(1, 1, 4, 2, 1.5);
    e.port(5, 1, 40_000).port(4, 5, 40_000).link(5, 1, 4, 5, 0.25);
    TopologyBuilder.Built b = TopologyBuilder.build(e.freeze(), Optional.of(threePath), options);
    assertEquals(
        List.of(Kind.EXTRA_SWITCH, Kind.PORTS_DIFFER, Kind.MISSING_LINK, Kind.EXTRA_LINK),
        b.mismatches().stream().map(DescriptorCheck.Mismatch::kind).toList());
    Topology t = b.topology();
    assertEquals(List.of("p1:1-sv:2", "p3:1-sv:3", "sv:5-s5:1"), linkNames(t));
    assertEquals(List.of(2.0, 2.0, 40.0), t.links().stream().map(Link::capacityMbps).toList());
    assertEquals(List.of(25.0, 50.0, 0.25), t.links().stream().map(Link::delayMs).toList());

    CandidatePaths paths = new CandidatePaths(t, 4);
    SwitchNode p2 = t.requireSwitch("p2");
    SwitchNode sv = t.requireSwitch("sv");
    assertTrue(paths.between(p2, sv).isEmpty(), "no path over the link that was not discovered");
    assertThrows(TopologyException.class, () -> paths.requireBetween(p2, sv));
  }

  @Test
  void aDescriptorHostSeenElsewhereIsRoutedWhereItWasSeen() {
    var e = NetworkViews.cabled(threePath, 100_000);
    e.attachments.replaceAll(
        a -> a.ip().equals("10.0.2.11") ? new AttachmentView(a.ip(), a.mac(), 3, 8) : a);
    TopologyBuilder.Built b = TopologyBuilder.build(e.freeze(), Optional.of(threePath), options);
    assertEquals(
        List.of(Kind.HOST_ELSEWHERE),
        b.mismatches().stream().map(DescriptorCheck.Mismatch::kind).toList());
    HostInterface moved = b.topology().clients().get(0).interfaces().get(1);
    assertEquals("p3", moved.attachment().name());
    assertEquals(8, moved.port());
  }

  @Test
  void badOptionsAreRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new TopologyBuilder.Options(" ", 1, Set.of(), TopologyBuilder.Grouping.PER_ADDRESS));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new TopologyBuilder.Options(
                "n", Double.NaN, Set.of(), TopologyBuilder.Grouping.PER_ADDRESS));
    assertThrows(
        IllegalArgumentException.class, () -> new TopologyBuilder.Options("n", 1, Set.of(), null));
  }
}
