package org.mpqoe.core.path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpqoe.core.Graphs;
import org.mpqoe.core.topology.SwitchNode;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyLoader;

class RoutesTest {
  // a - b - d and a - c - d tie; a - e - f - d is longer. Links in this order: a-b is link 0.
  private final Topology diamond =
      Graphs.of("a-b 10 1", "b-d 10 1", "a-c 10 2", "c-d 10 2", "a-e 10 1", "e-f 10 1", "f-d 10 1");

  @Test
  void aTieGoesToTheLowerLinkIndexWhichIsTheLowerPort() {
    Routes r = Routes.of(new CandidatePaths(diamond, 8));
    Routes.Hop hop = r.hop(sw("a"), sw("d")).orElseThrow();
    assertEquals("b", hop.next().name());
    assertEquals(0, hop.link().index());
    assertEquals(1, hop.port());
    assertEquals(2, hop.hops());
    // c's links to d (3) and a (2): d is one hop away
    assertEquals("d", r.hop(sw("c"), sw("d")).orElseThrow().next().name());
  }

  @Test
  void followsTheLinksThatAreUpAndTheHopBound() {
    CandidatePaths paths = new CandidatePaths(diamond, 8);
    paths.setLinkUp(1, false); // b-d
    Routes r = Routes.of(paths);
    assertEquals("c", r.hop(sw("a"), sw("d")).orElseThrow().next().name());
    assertEquals(3, r.hop(sw("b"), sw("d")).orElseThrow().hops()); // b-a-c-d
    Routes near = Routes.of(new CandidatePaths(diamond, 1));
    assertTrue(near.hop(sw("a"), sw("d")).isEmpty());
    assertTrue(near.hop(sw("a"), sw("b")).isPresent());
    assertTrue(near.hop(sw("a"), sw("a")).isEmpty());
  }

  /** The class comment's claim: hop by hop, the tables follow the path shortest() gives. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"jellyfish20", "qomra-dc", "custom12", "fullmesh-cross"})
  void hopByHopIsTheShortestPathFromTheFirstSwitch(String name) {
    Topology t = TopologyLoader.load(name);
    CandidatePaths paths = new CandidatePaths(t, 8);
    Routes r = Routes.of(paths);
    int pairs = 0;
    for (SwitchNode from : t.switches()) {
      for (SwitchNode to : t.switches()) {
        var shortest = paths.shortest(from, to);
        if (from.equals(to) || shortest.isEmpty()) {
          assertTrue(r.hop(from, to).isEmpty());
          continue;
        }
        List<Integer> links = new ArrayList<>();
        SwitchNode at = from;
        while (!at.equals(to)) {
          Routes.Hop hop = r.hop(at, to).orElseThrow();
          assertEquals(hop.link().portAt(at), hop.port());
          links.add(hop.link().index());
          at = hop.next();
        }
        List<Integer> want = new ArrayList<>();
        for (int l : shortest.get().links()) {
          want.add(l);
        }
        assertEquals(want, links, from + " -> " + to);
        assertEquals(want.size(), r.hop(from, to).orElseThrow().hops());
        pairs++;
      }
    }
    assertEquals(pairs, r.hops().size());
  }

  private SwitchNode sw(String name) {
    return diamond.requireSwitch(name);
  }
}
