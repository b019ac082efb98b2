package org.mpqoe.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.mptcp.MptcpHandshake;
import org.mpqoe.core.mptcp.Tokens;
import org.mpqoe.core.packet.Addresses;
import org.mpqoe.core.path.CandidatePaths;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.select.ClientAssignments;
import org.mpqoe.core.topology.NetworkViews;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyBuilder;
import org.mpqoe.core.topology.TopologyLoader;

/**
 * A client wired as in the GA paper's own framework: three interfaces on three switches p1, p2, p3,
 * each one 5 ms link from the server's switch sv (p1-p2 and p2-p3 are 20 ms detours). The server
 * has a second address on its own link to switch q (one address per link). The exact selector gives
 * each interface the direct path from its own switch.
 */
class MultiHomedRouterTest {
  static final Topology TOPO =
      TopologyLoader.parse(
          """
          {"schema":1,"name":"wired","description":"interfaces on three switches",
           "switches":[{"name":"p1"},{"name":"p2"},{"name":"p3"},{"name":"sv"},{"name":"q"}],
           "links":[{"a":"p1","b":"sv","capacityMbps":10,"delayMs":5},
                    {"a":"p2","b":"sv","capacityMbps":10,"delayMs":5},
                    {"a":"p3","b":"sv","capacityMbps":10,"delayMs":5},
                    {"a":"p1","b":"p2","capacityMbps":10,"delayMs":20},
                    {"a":"p2","b":"p3","capacityMbps":10,"delayMs":20},
                    {"a":"sv","b":"q","capacityMbps":10,"delayMs":1}],
           "hosts":[
             {"name":"mh","role":"client","interfaces":[
               {"ip":"10.0.1.21","mac":"02:00:00:00:01:15","switch":"p1"},
               {"ip":"10.0.2.21","mac":"02:00:00:00:02:15","switch":"p2"},
               {"ip":"10.0.3.21","mac":"02:00:00:00:03:15","switch":"p3"}]},
             {"name":"srv","role":"server","interfaces":[
               {"ip":"10.0.1.1","mac":"02:00:00:00:01:01","switch":"sv"},
               {"ip":"10.0.9.1","mac":"02:00:00:00:09:01","switch":"q"}]}]}
          """,
          "wired");
  static final int[] CL = {
    Addresses.parseIpv4("10.0.1.21"),
    Addresses.parseIpv4("10.0.2.21"),
    Addresses.parseIpv4("10.0.3.21")
  };
  static final long[] AT = {1, 2, 3};
  static final int SRV = Addresses.parseIpv4("10.0.1.1");
  static final int SRV2 = Addresses.parseIpv4("10.0.9.1");
  static final long SV = 4;
  static final byte[] FRAME = {1, 2, 3};

  static MptcpRouter router() {
    return new MptcpRouter(
        TOPO,
        new HostDirectory(TOPO),
        new CandidatePaths(TOPO, 8),
        new LinkStateTracker(TOPO),
        ControlConfig.defaults().withAlgorithm("exact"));
  }

  static TcpSegment syn(int i, int port) {
    return new TcpSegment(
        AT[i], 1, CL[i], SRV, port, 80, 0x02, new MptcpHandshake.CapableSyn(1, 0, null), FRAME);
  }

  static TcpSegment synAck(int i, int port, long key) {
    return new TcpSegment(
        SV, 1, SRV, CL[i], 80, port, 0x12, new MptcpHandshake.CapableSynAck(1, 0, key), FRAME);
  }

  static TcpSegment join(int i, int dst, int port, int token) {
    return new TcpSegment(
        AT[i],
        1,
        CL[i],
        dst,
        port,
        80,
        0x02,
        new MptcpHandshake.JoinSyn(token, 1, 0, false),
        FRAME);
  }

  static List<String> switchesOf(List<FlowRule> rules, FlowMatch m) {
    return rules.stream()
        .filter(r -> r.match().equals(m))
        .map(r -> TOPO.switchWithDpid(r.dpid()).orElseThrow().name())
        .sorted()
        .toList();
  }

  @Test
  void eachSubflowRunsOnThePathOfItsOwnInterface() {
    MptcpRouter r = router();
    Reaction capable = r.handle(syn(0, 5000)).orElseThrow();
    assertEquals(Reaction.Kind.MPTCP, capable.kind(), capable.log());
    ClientAssignments.Assignment a = r.assignments().get(0);
    for (int i = 0; i < 3; i++) {
      assertEquals(List.of("p" + (i + 1), "sv"), a.path(i).switchNames(TOPO), "interface " + i);
    }
    FlowMatch.Subflow up = new FlowMatch.Subflow(CL[0], SRV, 5000, 80);
    assertEquals(List.of("p1", "sv"), switchesOf(capable.plan().installs(), up));
    assertEquals(List.of("p1", "sv"), switchesOf(capable.plan().installs(), up.reversed()));
    r.handle(synAck(0, 5000, 0x77));
    int token = Tokens.token(0x77, 1);
    for (int i = 1; i < 3; i++) {
      Reaction j = r.handle(join(i, SRV, 5000 + i, token)).orElseThrow();
      assertEquals(Reaction.Kind.MPTCP, j.kind(), j.log());
      FlowMatch.Subflow m = new FlowMatch.Subflow(CL[i], SRV, 5000 + i, 80);
      assertEquals(List.of("p" + (i + 1), "sv"), switchesOf(j.plan().installs(), m), j.log());
      assertEquals(List.of("p" + (i + 1), "sv"), switchesOf(j.plan().installs(), m.reversed()));
      assertFalse(j.log().contains("not a selected path"), j.log());
    }
    Connection c = r.connections().get(0);
    assertEquals(
        List.of(0, 1, 2), c.subflows().stream().map(Connection.Subflow::pathIndex).toList());
  }

  @Test
  void theCapableSynUsesThePathOfTheInterfaceItComesFrom() {
    MptcpRouter r = router();
    Reaction capable = r.handle(syn(1, 5000)).orElseThrow();
    assertEquals(Reaction.Kind.MPTCP, capable.kind(), capable.log());
    FlowMatch.Subflow up = new FlowMatch.Subflow(CL[1], SRV, 5000, 80);
    assertEquals(List.of("p2", "sv"), switchesOf(capable.plan().installs(), up));
    assertEquals(1, r.connections().get(0).subflows().get(0).pathIndex());
  }

  @Test
  void aJoinToAnotherServerAddressTakesTheShortestPathAndSaysSo() {
    MptcpRouter r = router();
    r.handle(syn(0, 5000));
    r.handle(synAck(0, 5000, 0x77));
    Reaction j = r.handle(join(1, SRV2, 5001, Tokens.token(0x77, 1))).orElseThrow();
    assertEquals(Reaction.Kind.MPTCP, j.kind(), j.log());
    FlowMatch.Subflow m = new FlowMatch.Subflow(CL[1], SRV2, 5001, 80);
    assertEquals(List.of("p2", "q", "sv"), switchesOf(j.plan().installs(), m));
    assertTrue(j.log().contains("not a selected path"), j.log());
  }

  @Test
  void aSubflowOnAPathNoSelectionChoseIsMovedOffAFailedLinkToo() {
    MptcpRouter r = router();
    r.handle(syn(0, 5000));
    r.handle(synAck(0, 5000, 0x77));
    r.handle(join(1, SRV2, 5001, Tokens.token(0x77, 1)));
    FlowMatch.Subflow m = new FlowMatch.Subflow(CL[1], SRV2, 5001, 80);
    Connection.Subflow before = r.connections().get(0).subflow(m);
    int p2sv = 1;
    int svq = 5;
    assertTrue(before.path().uses(p2sv));
    FlowPlan plan = r.linkChanged(p2sv, false);
    Connection.Subflow after = r.connections().get(0).subflow(m);
    assertFalse(after.path().uses(p2sv), after.path().switchNames(TOPO).toString());
    assertEquals("p2", TOPO.switches().get(after.path().source()).name());
    assertEquals("q", TOPO.switches().get(after.path().destination()).name());
    assertEquals(Cookies.generation(before.cookie()) + 1, Cookies.generation(after.cookie()));
    assertTrue(plan.removals().stream().anyMatch(x -> x.cookie() == before.cookie()));
    assertTrue(plan.installs().stream().anyMatch(x -> x.cookie() == after.cookie()));
    // Cut off from q, it loses its rules; the selected subflows stay.
    FlowPlan cut = r.linkChanged(svq, false);
    assertTrue(cut.removals().stream().anyMatch(x -> x.cookie() == after.cookie()));
    assertEquals(null, r.connections().get(0).subflow(m));
    assertEquals(1, r.connections().get(0).subflows().size());
  }

  @Test
  void aLinkFailureGivesTheInterfaceAPathFromItsOwnSwitch() {
    MptcpRouter r = router();
    r.handle(syn(0, 5000));
    r.handle(synAck(0, 5000, 0x77));
    int token = Tokens.token(0x77, 1);
    r.handle(join(1, SRV, 5001, token));
    r.handle(join(2, SRV, 5002, token));
    long p3Cookie = r.connections().get(0).subflows().get(2).cookie();
    int p2sv = 1;
    r.linkChanged(p2sv, false);
    ClientAssignments.Assignment a = r.assignments().get(0);
    assertEquals(List.of("p1", "sv"), a.path(0).switchNames(TOPO));
    assertEquals(List.of("p3", "sv"), a.path(2).switchNames(TOPO));
    // Whether or not the new selection has a path from p2, interface 1 keeps one from p2 (the
    // selection's, else the shortest): its subflow lives on, moved off the dead link.
    Path moved = a.path(1);
    assertEquals("p2", TOPO.switches().get(moved.source()).name(), moved.toString());
    assertFalse(moved.uses(p2sv));
    Connection.Subflow second =
        r.connections().get(0).subflows().stream()
            .filter(sf -> sf.pathIndex() == 1)
            .findFirst()
            .orElseThrow();
    assertEquals(moved, second.path());
    assertEquals(1, Cookies.generation(second.cookie()));
    // The other interfaces' subflows were not touched.
    assertEquals(
        p3Cookie,
        r.connections().get(0).subflows().stream()
            .filter(sf -> sf.pathIndex() == 2)
            .findFirst()
            .orElseThrow()
            .cookie());
    Set<String> firstHops =
        r.connections().get(0).subflows().stream()
            .filter(sf -> sf.path() != null)
            .map(sf -> TOPO.switches().get(sf.path().source()).name())
            .collect(Collectors.toSet());
    assertTrue(firstHops.contains("p1") && firstHops.contains("p3"), firstHops.toString());
  }

  @Test
  void aReplacedTopologyMovesOnlyTheInterfaceWhosePathLostALink() {
    var options = DiscoveryConfig.DEFAULTS.withServers(List.of("10.0.1.1")).topologyOptions(false);
    var start =
        TopologyBuilder.build(
            NetworkViews.cabled(TOPO, 10_000).freeze(), java.util.Optional.of(TOPO), options);
    MptcpControlPlane cp =
        new MptcpControlPlane(
            start.topology(),
            ControlConfig.defaults().withAlgorithm("exact"),
            MptcpControlPlane.Source.DESCRIPTOR_AND_DISCOVERED);
    MptcpRouter r = cp.router();
    r.handle(syn(0, 5000));
    r.handle(synAck(0, 5000, 0x77));
    int token = Tokens.token(0x77, 1);
    r.handle(join(1, SRV, 5001, token));
    r.handle(join(2, SRV, 5002, token));
    // The cable between p2 (dpid 2) and sv (dpid 4).
    var next =
        TopologyBuilder.build(
            NetworkViews.cabled(TOPO, 10_000).unplug(2, 4).freeze(),
            java.util.Optional.of(TOPO),
            options);
    cp.replaceTopology(next.topology(), next.mismatches());
    Topology now = cp.topology();
    ClientAssignments.Assignment a = r.assignments().get(0);
    for (int i = 0; i < 3; i++) {
      Path p = a.path(i);
      assertEquals("p" + (i + 1), now.switches().get(p.source()).name(), "interface " + i);
    }
    assertEquals(List.of("p1", "sv"), a.path(0).switchNames(now));
    assertEquals(List.of("p3", "sv"), a.path(2).switchNames(now));
    assertTrue(a.path(1).hops() > 1, a.path(1).switchNames(now).toString());
    for (Connection.Subflow sf : r.connections().get(0).subflows()) {
      assertEquals(a.path(sf.pathIndex()), sf.path(), "subflow " + sf.index());
      assertEquals(sf.pathIndex() == 1 ? 1 : 0, Cookies.generation(sf.cookie()));
    }
    // The kept selection still says which interface each surviving path is for.
    for (int j = 0; j < a.selection().paths().size(); j++) {
      Path p = a.selection().paths().get(j);
      int i = a.selection().interfaces().get(j);
      assertEquals(now.switches().get(p.source()).name(), "p" + (i + 1), "selection path " + j);
    }
  }
}
