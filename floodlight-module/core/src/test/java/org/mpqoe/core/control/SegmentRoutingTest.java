package org.mpqoe.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.Graphs;
import org.mpqoe.core.path.CandidatePaths;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.topology.Topology;

class SegmentRoutingTest {

  private static Path path(Topology t, String... names) {
    CandidatePaths cp = new CandidatePaths(t, 10);
    for (Path p : cp.between(t.requireSwitch(names[0]), t.requireSwitch(names[names.length - 1]))) {
      if (p.switchNames(t).equals(List.of(names))) {
        return p;
      }
    }
    throw new AssertionError("no path " + List.of(names));
  }

  private static int node(Topology t, String name) {
    return SegmentRouting.NODE_BASE + t.requireSwitch(name).index();
  }

  @Test
  void aUniqueShortestPathIsOneNodeSegment() {
    Topology line = Graphs.of("a-b 1 1", "b-c 1 1", "c-d 1 1");
    SegmentRouting sr = new SegmentRouting(line);
    assertEquals(List.of(node(line, "d")), sr.labels(path(line, "a", "b", "c", "d")));
  }

  @Test
  void equalCostAlternativesNeedAWaypoint() {
    // Square a-b-d / a-c-d: two shortest paths from a to d.
    Topology square = Graphs.of("a-b 1 1", "b-d 1 1", "a-c 1 1", "c-d 1 1");
    SegmentRouting sr = new SegmentRouting(square);
    assertEquals(
        List.of(node(square, "b"), node(square, "d")), sr.labels(path(square, "a", "b", "d")));
  }

  @Test
  void aDetourIsSplitWhereTheShortestPathWouldLeaveIt() {
    // Ring a-b-c-d-e-a: the long way a-b-c-d is not shortest (a-e-d is), but a-b-c is.
    Topology ring = Graphs.of("a-b 1 1", "b-c 1 1", "c-d 1 1", "d-e 1 1", "e-a 1 1");
    SegmentRouting sr = new SegmentRouting(ring);
    assertEquals(
        List.of(node(ring, "c"), node(ring, "d")), sr.labels(path(ring, "a", "b", "c", "d")));
  }

  @Test
  void parallelLinksNeedAdjacencySegments() {
    Topology twin = Graphs.of("a-b 1 1", "a-b 1 2", "b-c 1 1");
    SegmentRouting sr = new SegmentRouting(twin);
    Path second =
        new CandidatePaths(twin, 4)
            .between(twin.requireSwitch("a"), twin.requireSwitch("c")).stream()
                .filter(p -> p.links()[0] == 1)
                .findFirst()
                .orElseThrow();
    assertEquals(List.of(SegmentRouting.ADJACENCY_BASE + 2, node(twin, "c")), sr.labels(second));
  }

  @Test
  void labelRulesForwardPopAtThePenultimateHopAndHandleAdjacencies() {
    Topology line = Graphs.of("a-b 1 1", "b-c 1 1");
    SegmentRouting sr = new SegmentRouting(line);
    List<FlowRule> atA = sr.labelRules(line.requireSwitch("a"), 100);
    // Table-0 MPLS rule, node b (penultimate: pop, 2 rules), node c (forward, 2 rules),
    // adjacency a-b from a (pop, 2 rules).
    assertEquals(7, atA.size());
    assertTrue(
        atA.contains(
            new FlowRule(
                1,
                SegmentRouting.LABEL_TABLE,
                100,
                new FlowMatch.Label(node(line, "b"), true),
                List.of(new FlowAction.PopLabel(true), new FlowAction.Output(1)),
                0,
                Cookies.of(Cookies.LABEL),
                false)));
    assertTrue(
        atA.contains(
            new FlowRule(
                1,
                SegmentRouting.LABEL_TABLE,
                100,
                new FlowMatch.Label(node(line, "c"), false),
                List.of(new FlowAction.Output(1)),
                0,
                Cookies.of(Cookies.LABEL),
                false)));
  }

  @Test
  void everyCandidateOfCompuserveEncodesIntoFewerSegmentsThanHops() {
    Topology t = org.mpqoe.core.topology.TopologyLoader.load("compuserve");
    SegmentRouting sr = new SegmentRouting(t);
    CandidatePaths cp = new CandidatePaths(t, 8);
    var server = t.servers().get(0).firstHop();
    int hops = 0;
    int segments = 0;
    for (var s : t.switches()) {
      for (Path p : cp.between(s, server)) {
        int n = sr.labels(p).size();
        assertTrue(n <= p.hops(), p.describe(t));
        assertTrue(p.hops() == 0 || n >= 1, p.describe(t));
        hops += p.hops();
        segments += n;
      }
    }
    assertTrue(segments < hops, segments + " segments for " + hops + " hops");
  }
}
