package org.mpqoe.core.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.Graphs;
import org.mpqoe.core.path.CandidatePaths;
import org.mpqoe.core.path.LinkState;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.topology.Topology;

/**
 * A client whose interfaces sit on several switches (eq. 5 per switch). The network: p1, p2 and p3
 * each one 5 ms link from the server's switch sv, and p1-p2, p2-p3 of 20 ms, so each client switch
 * has its direct path (5 ms) and longer ones through its neighbours.
 */
class MultiHomedSelectionTest {
  static final Topology WIRED =
      Graphs.of(
          "p1-sv 10 5", "p2-sv 10 5", "p3-sv 10 5", "p1-p2 10 20", "p2-p3 10 20", "p3-sv2 10 1");
  static final CandidatePaths PATHS = new CandidatePaths(WIRED, 8);

  static int sw(String name) {
    return WIRED.requireSwitch(name).index();
  }

  static SelectionProblem problem(String... interfaceSwitches) {
    int[] at = Arrays.stream(interfaceSwitches).mapToInt(MultiHomedSelectionTest::sw).toArray();
    List<Path> candidates = new ArrayList<>();
    Arrays.stream(at)
        .distinct()
        .forEach(
            s ->
                candidates.addAll(
                    PATHS.between(WIRED.switches().get(s), WIRED.requireSwitch("sv"))));
    return new SelectionProblem(
        "mh", "srv", at, candidates, LinkState.nominal(WIRED), p -> 0, SelectionConfig.DEFAULTS, 3);
  }

  static int index(SelectionProblem p, String... switches) {
    for (int i = 0; i < p.size(); i++) {
      if (p.candidates().get(i).switchNames(WIRED).equals(List.of(switches))) {
        return i;
      }
    }
    throw new AssertionError("no candidate " + List.of(switches));
  }

  @Test
  void aSetFitsWhenNoSwitchHasMorePathsStartingThereThanInterfaces() {
    SelectionProblem p = problem("p1", "p1", "p2");
    int a = index(p, "p1", "sv");
    int b = index(p, "p1", "p2", "sv");
    int c = index(p, "p2", "sv");
    int d = index(p, "p2", "p1", "sv");
    assertTrue(p.feasible(new int[] {a, b}, 2));
    assertTrue(p.feasible(new int[] {a, b, c}, 3));
    // Two paths from p2, where one interface is attached.
    assertFalse(p.feasible(new int[] {c, d}, 2));
    assertFalse(p.score(new int[] {a, c, d}).feasible());
    assertEquals(0, p.fitness(new int[] {c, d}, 2));
    assertFalse(p.scoreOf(List.of(p.candidates().get(c), p.candidates().get(d))).feasible());
    assertTrue(p.scoreOf(List.of(p.candidates().get(a), p.candidates().get(c))).feasible());
    assertEquals(2, p.slots(a));
    assertEquals(1, p.slots(c));
    assertTrue(p.slotFree(d, new int[] {a, b}, 2));
    assertFalse(p.slotFree(d, new int[] {c}, 1));
    assertEquals(
        List.of(a, c), Arrays.stream(p.keepWithinSlots(new int[] {a, c, d})).boxed().toList());
  }

  @Test
  void onOneSwitchTheCheckIsKAtMostN() {
    SelectionProblem p = problem("p1", "p1");
    int[] three = {index(p, "p1", "sv"), index(p, "p1", "p2", "sv"), 2};
    assertTrue(p.feasible(three, 2));
    assertFalse(p.feasible(three, 3));
    // The problem built from N alone says the same.
    SelectionProblem n =
        new SelectionProblem(
            "mh",
            2,
            p.allCandidates(),
            LinkState.nominal(WIRED),
            q -> 0,
            SelectionConfig.DEFAULTS,
            3);
    assertTrue(n.feasible(three, 2));
    assertFalse(n.feasible(three, 3));
  }

  @Test
  void aCandidateFromASwitchWithoutInterfaceIsRefused() {
    List<Path> fromP3 = PATHS.between(WIRED.requireSwitch("p3"), WIRED.requireSwitch("sv"));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new SelectionProblem(
                    "mh",
                    "srv",
                    new int[] {sw("p1")},
                    fromP3,
                    LinkState.nominal(WIRED),
                    p -> 0,
                    SelectionConfig.DEFAULTS,
                    1));
    assertTrue(e.getMessage().contains("where the client has no interface"), e.getMessage());
  }

  @Test
  void interfacesOfASwitchTakeItsPathsInAscendingDelayInInterfaceOrder() {
    SelectionProblem p = problem("p1", "p2", "p1");
    int slow = index(p, "p1", "p2", "sv");
    int fast = index(p, "p1", "sv");
    int other = index(p, "p2", "sv");
    Selection s = p.selectionOf("x", new int[] {slow, other, fast});
    assertEquals(List.of("p1", "sv"), s.pathOf(0).switchNames(WIRED));
    assertEquals(List.of("p2", "sv"), s.pathOf(1).switchNames(WIRED));
    assertEquals(List.of("p1", "p2", "sv"), s.pathOf(2).switchNames(WIRED));
    assertEquals(List.of(s.pathOf(0), s.pathOf(1), s.pathOf(2)), s.byInterface());
    // Paths stay in ascending delay (ties: candidate index), each with its interface.
    assertEquals(List.of(0, 1, 2), s.interfaces());
    assertTrue(s.score().feasible());
  }

  @Test
  void onOneSwitchPathIIsForInterfaceI() {
    SelectionProblem p = problem("p1", "p1", "p1");
    Selection s = p.selectionOf("x", new int[] {2, 0, 1});
    assertEquals(List.of(0, 1, 2), s.interfaces());
    assertEquals(s.paths(), s.byInterface());
    assertEquals(new Selection("x", "mh", s.paths(), s.score()), s);
  }

  @Test
  void anInterfaceWithoutAPathGetsNull() {
    SelectionProblem p = problem("p1", "p2", "p3");
    Selection s = p.selectionOf("x", new int[] {index(p, "p3", "sv")});
    assertNull(s.pathOf(0));
    assertNull(s.pathOf(1));
    assertEquals(List.of("p3", "sv"), s.pathOf(2).switchNames(WIRED));
    assertEquals(Arrays.asList(null, null, s.pathOf(2)), s.byInterface());
  }

  @Test
  void everySelectorGivesEachInterfaceAPathFromItsOwnSwitch() {
    for (String name : Selectors.NAMES) {
      SelectionProblem p = problem("p1", "p2", "p3");
      Selection s = Selectors.create(name, GaConfig.DEFAULTS).select(p);
      assertTrue(s.score().feasible(), name + ": " + s);
      for (int i = 0; i < 3; i++) {
        Path own = s.pathOf(i);
        assertTrue(own != null, name + ": interface " + i + " has no path: " + s);
        // From its own switch to the server's; which of the equally fit paths from there a
        // selector takes (the direct one or one through a neighbour: here both score 1.0) is
        // its own business.
        List<String> hops = own.switchNames(WIRED);
        assertEquals(List.of("p1", "p2", "p3").get(i), hops.get(0), name + ": interface " + i);
        assertEquals("sv", hops.get(hops.size() - 1), name + ": interface " + i);
      }
    }
  }

  /**
   * A random instance on a random small graph (as in BaselinePropertiesTest) whose client has 1-4
   * interfaces on random switches, the candidates the union from each of them.
   */
  static SelectionProblem randomInstance(long seed, int n) {
    BaselinePropertiesTest.Drawn drawn = BaselinePropertiesTest.drawn(seed, n);
    SelectionProblem base = drawn.problem();
    Topology topo = drawn.topology();
    Random r = new Random(seed ^ 0x5EED);
    int dst = base.allCandidates().isEmpty() ? 0 : base.allCandidates().get(0).destination();
    int[] at = interfaceSwitches(seed, n);
    CandidatePaths paths = new CandidatePaths(topo, 6);
    List<Path> candidates = new ArrayList<>();
    Arrays.stream(at)
        .distinct()
        .forEach(
            s ->
                candidates.addAll(paths.between(topo.switches().get(s), topo.switches().get(dst))));
    return new SelectionProblem(
        "c1", "s1", at, candidates, base.state(), p -> r.nextInt(3), base.config(), seed);
  }

  /** The random instance's interface switches. */
  static int[] interfaceSwitches(long seed, int n) {
    int k = BaselinePropertiesTest.drawn(seed, n).topology().switches().size();
    Random r = new Random(seed ^ 0xA77AC4L);
    return r.ints(n, 0, k).toArray();
  }

  @Property(tries = 150)
  void noSelectorReturnsASetBeyondTheSlots(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 4) int n) {
    SelectionProblem p = randomInstance(seed, n);
    int[] at = interfaceSwitches(seed, n);
    for (String name : Selectors.NAMES) {
      Selection s = Selectors.create(name, GaConfig.DEFAULTS).select(p);
      // Every path is for an interface attached at its first switch (distinct interfaces: the
      // record checks), so no switch has more paths starting there than interfaces.
      for (int j = 0; j < s.paths().size(); j++) {
        assertEquals(
            at[s.interfaces().get(j)],
            s.paths().get(j).source(),
            name + ": path " + j + " not from its interface's switch: " + s);
      }
      for (int sw : at) {
        long interfaces = Arrays.stream(at).filter(x -> x == sw).count();
        long paths = s.distinctPaths().stream().filter(q -> q.source() == sw).count();
        assertTrue(paths <= interfaces, name + ": " + paths + " paths from switch " + sw);
      }
      assertTrue(p.scoreOf(s.paths()).feasible() || !s.score().feasible(), name + ": " + s);
    }
  }
}
