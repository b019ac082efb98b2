package org.mpqoe.core.path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.Graphs;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyException;

class CandidatePathsTest {
  // a - b - d and a - c - d, plus a long way a - e - f - d and a direct link b - c.
  private final Topology diamond =
      Graphs.of(
          "a-b 10 1",
          "b-d 10 1",
          "a-c 10 2",
          "c-d 10 2",
          "a-e 10 1",
          "e-f 10 1",
          "f-d 10 1",
          "b-c 10 5");

  @Test
  void enumeratesEverySimplePathShortestFirst() {
    CandidatePaths paths = new CandidatePaths(diamond, 8);
    List<List<String>> found =
        paths.between(diamond.requireSwitch("a"), diamond.requireSwitch("d")).stream()
            .map(p -> p.switchNames(diamond))
            .toList();
    assertEquals(
        List.of(
            List.of("a", "b", "d"),
            List.of("a", "c", "d"),
            List.of("a", "b", "c", "d"),
            List.of("a", "c", "b", "d"),
            List.of("a", "e", "f", "d")),
        found);
  }

  @Test
  void hopBoundCutsLongerPaths() {
    CandidatePaths paths = new CandidatePaths(diamond, 2);
    assertEquals(2, paths.between(diamond.requireSwitch("a"), diamond.requireSwitch("d")).size());
  }

  @Test
  void linkDownRemovesItsPathsAndLinkUpRestoresThem() {
    CandidatePaths paths = new CandidatePaths(diamond, 8);
    var a = diamond.requireSwitch("a");
    var d = diamond.requireSwitch("d");
    int bd = 1;
    assertEquals(5, paths.between(a, d).size());
    paths.setLinkUp(bd, false);
    List<Path> without = paths.between(a, d);
    assertEquals(3, without.size());
    without.forEach(p -> assertTrue(!p.uses(bd)));
    paths.setLinkUp(bd, true);
    assertEquals(5, paths.between(a, d).size());
    assertThrows(IllegalArgumentException.class, () -> paths.setLinkUp(99, false));
  }

  @Test
  void disconnectedSwitchesGiveAClearError() {
    Topology split = Graphs.of("a-b 10 1", "c-d 10 1");
    CandidatePaths paths = new CandidatePaths(split, 8);
    TopologyException e =
        assertThrows(
            TopologyException.class,
            () -> paths.requireBetween(split.requireSwitch("a"), split.requireSwitch("d")));
    assertEquals("switch 'a' cannot reach switch 'd' in test within 8 hops", e.getMessage());
  }

  @Test
  void sameSwitchIsOneLinklessPath() {
    CandidatePaths paths = new CandidatePaths(diamond, 8);
    List<Path> p = paths.between(diamond.requireSwitch("b"), diamond.requireSwitch("b"));
    assertEquals(1, p.size());
    assertEquals(0, p.get(0).hops());
  }

  @Test
  void pathArithmetic() {
    CandidatePaths paths = new CandidatePaths(diamond, 8);
    var a = diamond.requireSwitch("a");
    var d = diamond.requireSwitch("d");
    Path abd = paths.between(a, d).get(0);
    Path abcd = paths.between(a, d).get(2);
    LinkState state = LinkState.nominal(diamond).withLoads(new double[] {4, 9, 0, 0, 0, 0, 0, 12});
    assertEquals(2.0, abd.delayMs(state));
    assertEquals(1.0, abd.availableMbps(state), 1e-12);
    assertEquals(0.0, abcd.availableMbps(state), "over-full link b-c leaves nothing");
    assertEquals(List.of(0), java.util.Arrays.stream(abd.sharedLinks(abcd)).boxed().toList());
    assertTrue(!abd.isLinkDisjoint(abcd));
    assertTrue(abd.sharesCongestedLink(abcd, state, 0.3), "a-b at 0.4 is above 0.3");
    assertTrue(!abd.sharesCongestedLink(abcd, state, 0.5), "a-b at 0.4 is not above 0.5");
    assertEquals(1.2, state.congestion(7), 1e-12);
  }
}
