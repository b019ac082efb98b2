package org.mpqoe.core.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.topology.DescriptorCheck.Kind;
import org.mpqoe.core.topology.NetworkView.AttachmentView;
import org.mpqoe.core.topology.NetworkView.LinkView;

/** three-path: p1..p3 (dpids 1-3) each linked to sv (dpid 4) on sv ports 1-3; server on sv:4. */
class DescriptorCheckTest {
  private final Topology threePath = TopologyLoader.load("three-path");

  private static List<Kind> kinds(DescriptorCheck.Result r) {
    return r.mismatches().stream().map(DescriptorCheck.Mismatch::kind).toList();
  }

  @Test
  void theDescriptorsOwnCablingMatches() {
    DescriptorCheck.Result r =
        DescriptorCheck.check(threePath, NetworkViews.cabled(threePath, 10_000).freeze());
    assertTrue(r.matches(), r.mismatches().toString());
    assertEquals(3, r.found().size());
    assertTrue(r.extra().isEmpty());
  }

  @Test
  void aLinkNotDiscoveredIsMissingAndNotFound() {
    var v = NetworkViews.cabled(threePath, 10_000).unplug(2, 4).freeze();
    DescriptorCheck.Result r = DescriptorCheck.check(threePath, v);
    assertEquals(List.of(Kind.MISSING_LINK), kinds(r));
    assertTrue(r.mismatches().get(0).message().contains("p2:1-sv:2"), r.mismatches().toString());
    assertEquals(java.util.Set.of(0, 2), r.found().keySet());
  }

  @Test
  void cablesOnOtherPortsAreFoundAndReported() {
    var v = NetworkViews.cabled(threePath, 10_000).unplug(1, 4).unplug(2, 4);
    v.link(1, 1, 4, 2, 1).link(2, 1, 4, 1, 1);
    DescriptorCheck.Result r = DescriptorCheck.check(threePath, v.freeze());
    assertEquals(List.of(Kind.PORTS_DIFFER, Kind.PORTS_DIFFER), kinds(r));
    assertEquals(2, r.found().get(0).portOn(4));
    assertEquals(1, r.found().get(1).portOn(4));
    assertTrue(
        r.mismatches().get(0).message().contains("p1:1-sv:2, not 1-1"), r.mismatches().toString());
  }

  @Test
  void extraSwitchesExtraAndOneWayLinksAreListed() {
    var v = NetworkViews.cabled(threePath, 10_000);
    v.port(9, 1, 10_000).port(1, 5, 10_000).port(2, 5, 10_000).link(1, 5, 2, 5, 1);
    v.port(9, 2, 10_000).links.add(new LinkView(9, 2, 3, 7, 1));
    DescriptorCheck.Result r = DescriptorCheck.check(threePath, v.freeze());
    assertEquals(List.of(Kind.EXTRA_SWITCH, Kind.EXTRA_LINK, Kind.ONE_WAY_LINK), kinds(r));
    assertEquals(1, r.extra().size());
    assertEquals(5, r.extra().get(0).portA());
  }

  @Test
  void aMissingSwitchAndItsLinksAreReported() {
    var v = NetworkViews.cabled(threePath, 10_000).unplug(3, 4);
    v.ports.remove(3L);
    v.attachments.removeIf(a -> a.dpid() == 3);
    DescriptorCheck.Result r = DescriptorCheck.check(threePath, v.freeze());
    assertEquals(List.of(Kind.MISSING_SWITCH, Kind.MISSING_LINK), kinds(r));
  }

  @Test
  void aHostSeenElsewhereIsReportedAndAnUnseenHostIsNot() {
    var v = NetworkViews.cabled(threePath, 10_000);
    v.attachments.removeIf(a -> a.ip().equals("10.0.3.11"));
    v.attachments.replaceAll(
        a -> a.ip().equals("10.0.1.1") ? new AttachmentView(a.ip(), a.mac(), 4, 9) : a);
    DescriptorCheck.Result r = DescriptorCheck.check(threePath, v.freeze());
    assertEquals(List.of(Kind.HOST_ELSEWHERE), kinds(r));
    assertTrue(r.mismatches().get(0).message().contains("0000000000000004:9, not at sv:4"));
  }
}
