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
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyLoader;

/**
 * Three equal, disjoint routes from a to d (via b, c, e) and a longer one a-b-c-d. Client "cl" on a
 * with three interfaces, server "srv" on d. The exact selector assigns the three two-hop paths.
 */
class MptcpRouterTest {
  static final Topology TOPO =
      TopologyLoader.parse(
          """
          {"schema":1,"name":"tri","description":"three disjoint routes",
           "switches":[{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d"},{"name":"e"}],
           "links":[{"a":"a","b":"b","capacityMbps":10,"delayMs":5},
                    {"a":"b","b":"d","capacityMbps":10,"delayMs":5},
                    {"a":"a","b":"c","capacityMbps":10,"delayMs":5},
                    {"a":"c","b":"d","capacityMbps":10,"delayMs":5},
                    {"a":"a","b":"e","capacityMbps":10,"delayMs":5},
                    {"a":"e","b":"d","capacityMbps":10,"delayMs":5},
                    {"a":"b","b":"c","capacityMbps":10,"delayMs":5}],
           "hosts":[
             {"name":"cl","role":"client","interfaces":[
               {"ip":"10.0.1.11","mac":"02:00:00:00:01:0b","switch":"a"},
               {"ip":"10.0.2.11","mac":"02:00:00:00:02:0b","switch":"a"},
               {"ip":"10.0.3.11","mac":"02:00:00:00:03:0b","switch":"a"}]},
             {"name":"two","role":"client","interfaces":[
               {"ip":"10.0.1.12","mac":"02:00:00:00:01:0c","switch":"a"},
               {"ip":"10.0.2.12","mac":"02:00:00:00:02:0c","switch":"a"}]},
             {"name":"srv","role":"server","interfaces":[
               {"ip":"10.0.1.1","mac":"02:00:00:00:01:01","switch":"d"}]}]}
          """,
          "tri");
  static final int CL1 = Addresses.parseIpv4("10.0.1.11");
  static final int CL2 = Addresses.parseIpv4("10.0.2.11");
  static final int CL3 = Addresses.parseIpv4("10.0.3.11");
  static final int SRV = Addresses.parseIpv4("10.0.1.1");
  static final long A = 1;
  static final long D = 4;
  static final byte[] FRAME = {1, 2, 3};

  static MptcpRouter router(ControlConfig config) {
    return new MptcpRouter(
        TOPO,
        new HostDirectory(TOPO),
        new CandidatePaths(TOPO, 8),
        new LinkStateTracker(TOPO),
        config);
  }

  static MptcpRouter router() {
    return router(ControlConfig.defaults().withAlgorithm("exact"));
  }

  static TcpSegment syn(int src, int srcPort) {
    return new TcpSegment(
        A, 1, src, SRV, srcPort, 80, 0x02, new MptcpHandshake.CapableSyn(1, 0, null), FRAME);
  }

  static TcpSegment synAck(int client, int clientPort, long key) {
    return new TcpSegment(
        D,
        3,
        SRV,
        client,
        80,
        clientPort,
        0x12,
        new MptcpHandshake.CapableSynAck(1, 0, key),
        FRAME);
  }

  static TcpSegment join(int src, int srcPort, int token) {
    return new TcpSegment(
        A, 2, src, SRV, srcPort, 80, 0x02, new MptcpHandshake.JoinSyn(token, 1, 0, false), FRAME);
  }

  static Set<String> switchesOf(List<FlowRule> rules, FlowMatch m) {
    return rules.stream()
        .filter(r -> r.match().equals(m))
        .map(r -> TOPO.switchWithDpid(r.dpid()).orElseThrow().name())
        .collect(Collectors.toSet());
  }

  @Test
  void capableSynSelectsPathsAndInstallsSubflowOneBothWays() {
    MptcpRouter r = router();
    Reaction re = r.handle(syn(CL1, 5000)).orElseThrow();
    assertEquals(Reaction.Kind.MPTCP, re.kind());
    assertEquals(3, r.assignments().get(0).selection().paths().size());
    FlowPlan plan = re.plan();
    FlowMatch.Subflow up = new FlowMatch.Subflow(CL1, SRV, 5000, 80);
    // Path 1 is a-b-d: rules on a, b, d in each direction.
    assertEquals(Set.of("a", "b", "d"), switchesOf(plan.installs(), up));
    assertEquals(Set.of("a", "b", "d"), switchesOf(plan.installs(), up.reversed()));
    // The client's direction is installed farthest first.
    List<FlowRule> upRules = plan.installs().stream().filter(x -> x.match().equals(up)).toList();
    assertEquals(D, upRules.get(0).dpid());
    assertEquals(A, upRules.get(2).dpid());
    for (FlowRule rule : plan.installs()) {
      boolean copy = rule.match() instanceof FlowMatch.SynAck;
      assertEquals(copy ? 40001 : 40000, rule.priority());
      assertEquals(10, rule.idleTimeoutS());
      assertEquals(!copy, rule.notifyRemoval(), "the copy's expiry must not end the subflow");
      assertEquals(Cookies.SUBFLOW, Cookies.kind(rule.cookie()));
      assertEquals(copy, rule.actions().contains(new FlowAction.ToController()), rule.toString());
    }
    // One copy rule, at the server edge, for the server's SYN/ACKs only; it forwards them too,
    // like d's rule towards the client (d reaches b over its first link).
    FlowRule copy =
        plan.installs().stream()
            .filter(x -> x.match() instanceof FlowMatch.SynAck)
            .collect(Collectors.collectingAndThen(Collectors.toList(), l -> l.get(0)));
    assertEquals(1, plan.installs().stream().filter(SubflowRules::isSynAckCopy).count());
    assertEquals(D, copy.dpid());
    assertEquals(new FlowMatch.SynAck(up.reversed()), copy.match());
    assertEquals(List.of(new FlowAction.ToController(), new FlowAction.Output(1)), copy.actions());
    // Host ports: ports follow links then interfaces, so the server is port 4 of d.
    assertTrue(
        plan.installs()
            .contains(
                new FlowRule(
                    D,
                    0,
                    40000,
                    up,
                    List.of(new FlowAction.Output(4)),
                    10,
                    upRules.get(0).cookie(),
                    true)));
    assertEquals(new FlowAction.Output(FlowAction.PORT_TABLE), plan.packetOut().actions().get(0));
    assertEquals(A, plan.packetOut().dpid());
  }

  @Test
  void theCopyOfTheSynAckTeachesTheTokenAndSendsNothing() {
    MptcpRouter r = router();
    r.handle(syn(CL1, 5000));
    assertTrue(r.connections().get(0).subflows().get(0).copiesSynAck());
    Reaction re = r.handle(synAck(CL1, 5000, 0x1234)).orElseThrow();
    assertEquals(Reaction.Kind.MPTCP, re.kind());
    assertEquals(Tokens.token(0x1234, 1), r.connections().get(0).serverToken());
    // The switch forwarded the SYN/ACK itself: no rule to change, nothing to send on.
    assertTrue(re.plan().isEmpty(), re.plan().toString());
    // A retransmitted SYN/ACK is copied again: still nothing sent, the token unchanged.
    assertTrue(r.handle(synAck(CL1, 5000, 0x1234)).orElseThrow().plan().isEmpty());
    assertEquals(Tokens.token(0x1234, 1), r.connections().get(0).serverToken());
  }

  @Test
  void joinsGetTheIthPathForTheIthInterfaceByToken() {
    MptcpRouter r = router();
    r.handle(syn(CL1, 5000));
    r.handle(synAck(CL1, 5000, 0x1234));
    int token = Tokens.token(0x1234, 1);
    Reaction j2 = r.handle(join(CL2, 5001, token)).orElseThrow();
    Reaction j3 = r.handle(join(CL3, 5002, token)).orElseThrow();
    FlowMatch.Subflow two = new FlowMatch.Subflow(CL2, SRV, 5001, 80);
    FlowMatch.Subflow three = new FlowMatch.Subflow(CL3, SRV, 5002, 80);
    assertEquals(Set.of("a", "c", "d"), switchesOf(j2.plan().installs(), two));
    assertEquals(Set.of("a", "e", "d"), switchesOf(j3.plan().installs(), three));
    assertTrue(j2.log().contains("matched by TOKEN"), j2.log());
    Connection c = r.connections().get(0);
    assertEquals(3, c.subflows().size());
    assertEquals(Connection.MatchedBy.TOKEN, c.subflows().get(2).matchedBy());
  }

  @Test
  void withoutAKeyJoinsFallBackToHostIdentityAndUnknownTokensAreDropped() {
    MptcpRouter r = router();
    Reaction none = r.handle(join(CL2, 5001, 77)).orElseThrow();
    assertEquals(Reaction.Kind.DROPPED, none.kind());
    r.handle(syn(CL1, 5000));
    Reaction j = r.handle(join(CL2, 5001, 77)).orElseThrow();
    assertEquals(Reaction.Kind.MPTCP, j.kind());
    assertTrue(j.log().contains("matched by HOST_IDENTITY"), j.log());
  }

  @Test
  void fewerPathsThanInterfacesLeaveTheExtraSubflowsWithoutRules() {
    // alpha near 1 makes any delay spread costly: one path for each client.
    ControlConfig one =
        ControlConfig.defaults()
            .withAlgorithm("exact")
            .withSelection(ControlConfig.defaults().selection().withWeights(0.99, 0.01));
    MptcpRouter r = router(one);
    // Make the three two-hop paths differ in delay so a second path adds spread.
    r.handle(syn(CL1, 5000));
    int assigned = r.assignments().get(0).distinctPaths().size();
    Reaction extra = r.handle(join(CL3, 5002, 0)).orElseThrow();
    if (assigned < 3) {
      assertEquals(Reaction.Kind.DROPPED, extra.kind());
      assertTrue(extra.plan().isEmpty());
      assertTrue(extra.log().contains("subflow not established"), extra.log());
    } else {
      assertEquals(Reaction.Kind.MPTCP, extra.kind());
    }
  }

  @Test
  void secondConnectionReusesTheAssignment() {
    MptcpRouter r = router();
    r.handle(syn(CL1, 5000));
    var first = r.assignments().get(0).selection();
    r.handle(syn(CL1, 6000));
    assertEquals(1, r.assignments().size());
    assertEquals(2, r.assignments().get(0).connections());
    assertTrue(first == r.assignments().get(0).selection(), "no second selection");
    assertEquals(2, r.connections().size());
  }

  @Test
  void retransmittedSynsAreHeldBackSoThatTheServerGetsOneCopy() {
    MptcpRouter r = router();
    Reaction first = r.handle(syn(CL1, 5000)).orElseThrow();
    assertEquals(A, first.plan().packetOut().dpid());
    Reaction again = r.handle(syn(CL1, 5000)).orElseThrow();
    assertEquals(Reaction.Kind.MPTCP, again.kind());
    assertTrue(again.plan().isEmpty(), again.plan().toString());
    assertTrue(again.log().contains("not sent on again"), again.log());
    assertEquals(1, r.connections().size());
    assertEquals(1, r.connections().get(0).subflows().size());

    r.handle(synAck(CL1, 5000, 0x1234));
    int token = Tokens.token(0x1234, 1);
    Reaction join = r.handle(join(CL2, 5001, token)).orElseThrow();
    assertEquals(A, join.plan().packetOut().dpid());
    Reaction joinAgain = r.handle(join(CL2, 5001, token)).orElseThrow();
    assertEquals(Reaction.Kind.MPTCP, joinAgain.kind());
    assertTrue(joinAgain.plan().isEmpty(), joinAgain.plan().toString());
    assertEquals(2, r.connections().get(0).subflows().size());
  }

  @Test
  void synAwayFromTheFirstHopOrFromUnknownHostsIsIgnored() {
    MptcpRouter r = router();
    TcpSegment elsewhere =
        new TcpSegment(
            2, 1, CL1, SRV, 5000, 80, 0x02, new MptcpHandshake.CapableSyn(1, 0, null), FRAME);
    assertEquals(Reaction.Kind.IGNORED, r.handle(elsewhere).orElseThrow().kind());
    TcpSegment stranger =
        new TcpSegment(
            A,
            1,
            Addresses.parseIpv4("10.9.9.9"),
            SRV,
            1,
            80,
            0x02,
            new MptcpHandshake.CapableSyn(1, 0, null),
            FRAME);
    assertEquals(Reaction.Kind.IGNORED, r.handle(stranger).orElseThrow().kind());
    assertTrue(
        r.handle(
                new TcpSegment(
                    A,
                    1,
                    CL1,
                    SRV,
                    1,
                    80,
                    0x10,
                    new MptcpHandshake.None(MptcpHandshake.Reason.NO_HANDSHAKE_OPTION),
                    FRAME))
            .isEmpty());
    assertTrue(r.connections().isEmpty());
  }

  @Test
  void linkDownMovesTheSubflowsThatUsedIt() {
    MptcpRouter r = router();
    r.handle(syn(CL1, 5000));
    r.handle(synAck(CL1, 5000, 1));
    r.handle(join(CL2, 5001, Tokens.token(1, 1)));
    long oldCookie = r.connections().get(0).subflows().get(0).cookie();
    int bd = 1;
    FlowPlan plan = r.linkChanged(bd, false);
    assertEquals(List.of(new FlowPlan.Removal(0, oldCookie, Cookies.EXACT)), plan.removals());
    Connection c = r.connections().get(0);
    Connection.Subflow moved = c.subflows().get(0);
    assertFalse(moved.path().uses(bd));
    assertEquals(1, Cookies.generation(moved.cookie()));
    assertEquals(
        Set.copyOf(moved.rules()),
        Set.copyOf(plan.installs().stream().filter(x -> x.cookie() == moved.cookie()).toList()));
    // The removal of the old rules does not end the moved subflow.
    r.flowRemoved(oldCookie);
    assertEquals(2, r.connections().get(0).subflows().size());
    // The subflow on a-c-d was not touched; no assigned path uses the dead link.
    assertEquals(0, Cookies.generation(c.subflows().get(1).cookie()));
    r.assignments().get(0).distinctPaths().forEach(p -> assertFalse(p.uses(bd)));
  }

  @Test
  void idleRulesEndSubflowsThenConnectionsThenAssignments() {
    MptcpRouter r = router();
    r.handle(syn(CL1, 5000));
    var path = r.assignments().get(0).path(0);
    assertEquals(1, r.users(path));
    long cookie = r.connections().get(0).subflows().get(0).cookie();
    r.flowRemoved(cookie);
    assertTrue(r.connections().isEmpty());
    assertTrue(r.assignments().isEmpty());
    assertEquals(0, r.users(path));
    r.flowRemoved(cookie);
    r.flowRemoved(0x1234);
  }

  /** a to d has three equal shortest paths, so path a-b-d needs node b, then node d. */
  @Test
  void segmentRoutingNeedsOneRulePerDirection() {
    MptcpRouter r = router(ControlConfig.defaults().withAlgorithm("exact").withRouting(8, true));
    Reaction re = r.handle(syn(CL1, 5000)).orElseThrow();
    // One ingress rule per direction, and at d the copy of the SYN/ACKs, labels pushed after it.
    assertEquals(3, re.plan().installs().size());
    FlowRule copy =
        re.plan().installs().stream().filter(SubflowRules::isSynAckCopy).findFirst().orElseThrow();
    assertEquals(D, copy.dpid());
    assertEquals(new FlowAction.ToController(), copy.actions().get(0));
    assertTrue(copy.actions().get(1) instanceof FlowAction.PushLabels);
    FlowRule ingress =
        re.plan().installs().stream().filter(x -> x.dpid() == A).findFirst().orElseThrow();
    assertEquals(
        List.of(
            new FlowAction.PushLabels(
                List.of(SegmentRouting.NODE_BASE + 1, SegmentRouting.NODE_BASE + 3)),
            new FlowAction.GotoTable(SegmentRouting.LABEL_TABLE)),
        ingress.actions());
  }
}
