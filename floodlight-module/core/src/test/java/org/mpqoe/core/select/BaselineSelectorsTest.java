package org.mpqoe.core.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.path.CandidatePaths;
import org.mpqoe.core.path.LinkState;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyLoader;

/**
 * The four literature baselines and plain forwarding on small hand-built topologies whose answers
 * are worked out by hand in the comments.
 */
class BaselineSelectorsTest {
  private static final PathSelector PD_BW = new PartiallyDisjointBandwidthSelector();
  private static final PathSelector PD_DELAY = new PartiallyDisjointDelaySelector();
  private static final PathSelector FD_BW = new FullyDisjointBandwidthSelector();
  private static final PathSelector FD_DELAY = new FullyDisjointDelaySelector();
  private static final PathSelector NONE = new ShortestPathSelector();
  private static final List<PathSelector> ALL = List.of(PD_BW, PD_DELAY, FD_BW, FD_DELAY, NONE);

  private static final SelectionConfig D = SelectionConfig.DEFAULTS;

  /**
   * Two paths share the first hop s-m (100 Mbit/s, 5 ms), a third is disjoint.
   *
   * <pre>
   * link 0 s-m 100/5, 1 m-a 50/5, 2 a-t 50/5, 3 m-b 40/5, 4 b-t 40/6, 5 s-c 10/20, 6 c-t 10/20
   * candidate 0: s-c-t    40 ms, abw 10
   * candidate 1: s-m-a-t  15 ms, abw 50
   * candidate 2: s-m-b-t  16 ms, abw 40
   * </pre>
   */
  private static final Topology SHARED =
      topo(
          "s m a b c t",
          "s m 100 5",
          "m a 50 5",
          "a t 50 5",
          "m b 40 5",
          "b t 40 6",
          "s c 10 20",
          "c t 10 20");

  private static final List<String> SCT = List.of("s", "c", "t");
  private static final List<String> SMAT = List.of("s", "m", "a", "t");
  private static final List<String> SMBT = List.of("s", "m", "b", "t");

  // ---------------------------------------------------------------------------------------------
  // helpers

  /** A topology from "a b capacity delay" link lines; {@code switches} space-separated. */
  static Topology topo(String switches, String... links) {
    StringBuilder json = new StringBuilder("{\"schema\":1,\"name\":\"t\",\"description\":\"d\",");
    json.append("\"switches\":[");
    String[] names = switches.split(" ");
    for (int i = 0; i < names.length; i++) {
      json.append(i > 0 ? "," : "").append("{\"name\":\"").append(names[i]).append("\"}");
    }
    json.append("],\"links\":[");
    for (int i = 0; i < links.length; i++) {
      String[] f = links[i].split(" ");
      json.append(i > 0 ? "," : "")
          .append("{\"a\":\"")
          .append(f[0])
          .append("\",\"b\":\"")
          .append(f[1])
          .append("\",\"capacityMbps\":")
          .append(f[2])
          .append(",\"delayMs\":")
          .append(f[3])
          .append("}");
    }
    json.append("]}");
    return TopologyLoader.parse(json.toString(), "test");
  }

  static SelectionProblem problem(
      Topology t, String src, String dst, int n, SelectionConfig config, double[] loads) {
    List<Path> candidates =
        new CandidatePaths(t, 8).between(t.requireSwitch(src), t.requireSwitch(dst));
    LinkState state = LinkState.nominal(t);
    if (loads != null) {
      state = state.withLoads(loads);
    }
    return new SelectionProblem("c1", n, candidates, state, p -> 0, config, 1L);
  }

  static SelectionProblem problem(Topology t, int n, SelectionConfig config) {
    return problem(t, "s", "t", n, config, null);
  }

  static SelectionConfig config(
      double thrDelayMs, double pdBwReuseMbps, double pdDelayReuseMs, double fdDelayBoundMs) {
    return new SelectionConfig(
        D.alpha(),
        D.beta(),
        thrDelayMs,
        D.thrCong(),
        pdBwReuseMbps,
        pdDelayReuseMs,
        fdDelayBoundMs);
  }

  static SelectionConfig pdBw(double reuseMbps) {
    return config(D.thrDelayMs(), reuseMbps, D.pdDelayReuseMs(), D.fdDelayBoundMs());
  }

  static SelectionConfig pdDelay(double reuseMs) {
    return config(D.thrDelayMs(), D.pdBwReuseMbps(), reuseMs, D.fdDelayBoundMs());
  }

  static SelectionConfig fdBound(double boundMs) {
    return config(D.thrDelayMs(), D.pdBwReuseMbps(), D.pdDelayReuseMs(), boundMs);
  }

  static SelectionConfig thrDelay(double thrMs) {
    return config(thrMs, D.pdBwReuseMbps(), D.pdDelayReuseMs(), D.fdDelayBoundMs());
  }

  static List<List<String>> names(Selection s, Topology t) {
    return s.paths().stream().map(p -> p.switchNames(t)).toList();
  }

  static void assertPairwiseDisjoint(Selection s) {
    List<Path> paths = s.paths();
    for (int i = 0; i < paths.size(); i++) {
      for (int j = i + 1; j < paths.size(); j++) {
        assertTrue(
            paths.get(i).isLinkDisjoint(paths.get(j)),
            paths.get(i) + " and " + paths.get(j) + " share a link");
      }
    }
  }

  @Test
  void namesAreTheCliNames() {
    assertEquals(
        List.of("pd-bw", "pd-delay", "fd-bw", "fd-delay", "none"),
        ALL.stream().map(PathSelector::name).toList());
  }

  @Test
  void sharedTopologyHasTheCandidatesTheCommentsAssume() {
    SelectionProblem p = problem(SHARED, 3, D);
    assertEquals(
        List.of(SCT, SMAT, SMBT), p.candidates().stream().map(x -> x.switchNames(SHARED)).toList());
    assertEquals(List.of(40.0, 15.0, 16.0), List.of(p.delayMs(0), p.delayMs(1), p.delayMs(2)));
    assertEquals(
        List.of(10.0, 50.0, 40.0),
        List.of(p.availableMbps(0), p.availableMbps(1), p.availableMbps(2)));
  }

  // ---------------------------------------------------------------------------------------------

  @Nested
  class PdBw {
    @Test
    void takesWidestThenReusesAWideSharedLink() {
      // order by abw: s-m-a-t 50, s-m-b-t 40, s-c-t 10; s-m has 100 free > 2
      assertEquals(List.of(SMAT, SMBT), names(PD_BW.select(problem(SHARED, 2, D)), SHARED));
      assertEquals(List.of(SMAT, SMBT, SCT), names(PD_BW.select(problem(SHARED, 3, D)), SHARED));
      assertEquals(List.of(SMAT), names(PD_BW.select(problem(SHARED, 1, D)), SHARED));
    }

    @Test
    void reuseThresholdIsStrict() {
      // s-m has exactly 100 free: not more than 100, so s-m-b-t is rejected
      assertEquals(List.of(SMAT, SCT), names(PD_BW.select(problem(SHARED, 2, pdBw(100))), SHARED));
      assertEquals(
          List.of(SMAT, SMBT), names(PD_BW.select(problem(SHARED, 2, pdBw(99.5))), SHARED));
    }

    @Test
    void loadOnTheSharedLinkChangesTheAnswer() {
      SelectionConfig c = pdBw(35);
      double[] idle = new double[7];
      double[] loaded = new double[7];
      loaded[0] = 70; // s-m: 30 free < 35; s-m-a-t and s-m-b-t now both have abw 30
      assertEquals(
          List.of(SMAT, SMBT), names(PD_BW.select(problem(SHARED, "s", "t", 2, c, idle)), SHARED));
      assertEquals(
          List.of(SMAT, SCT), names(PD_BW.select(problem(SHARED, "s", "t", 2, c, loaded)), SHARED));
      // with a lower threshold the loaded link may be shared again
      assertEquals(
          List.of(SMAT, SMBT),
          names(PD_BW.select(problem(SHARED, "s", "t", 2, pdBw(29), loaded)), SHARED));
    }

    @Test
    void bandwidthTieGoesToLowerDelayNotLowerIndex() {
      // candidate 0 s-x-t: 30 ms, abw 10; candidate 1 s-y-z-t: 9 ms, abw 10
      Topology t = topo("s x y z t", "s x 10 15", "x t 10 15", "s y 10 3", "y z 10 3", "z t 10 3");
      assertEquals(List.of(List.of("s", "y", "z", "t")), names(PD_BW.select(problem(t, 1, D)), t));
    }
  }

  @Nested
  class PdDelay {
    @Test
    void takesFastestThenReusesALowLatencySharedLink() {
      // order by delay: s-m-a-t 15, s-m-b-t 16, s-c-t 40; s-m is 5 ms < 40
      assertEquals(List.of(SMAT, SMBT), names(PD_DELAY.select(problem(SHARED, 2, D)), SHARED));
      assertEquals(List.of(SMAT, SMBT, SCT), names(PD_DELAY.select(problem(SHARED, 3, D)), SHARED));
      assertEquals(List.of(SMAT), names(PD_DELAY.select(problem(SHARED, 1, D)), SHARED));
    }

    @Test
    void reuseThresholdIsStrict() {
      // s-m is exactly 5 ms: not below 5, so s-m-b-t is rejected
      assertEquals(
          List.of(SMAT, SCT), names(PD_DELAY.select(problem(SHARED, 2, pdDelay(5))), SHARED));
      assertEquals(
          List.of(SMAT, SMBT), names(PD_DELAY.select(problem(SHARED, 2, pdDelay(5.5))), SHARED));
    }

    @Test
    void slowSharedLinkIsNotReusedEvenWhenFewerThanNPaths() {
      // s-m now 50 ms: s-c-t 40, s-m-a-t 60, s-m-b-t 61; s-m-b-t may not reuse s-m (50 >= 40)
      Topology t =
          topo(
              "s m a b c t",
              "s m 100 50",
              "m a 50 5",
              "a t 50 5",
              "m b 40 5",
              "b t 40 6",
              "s c 10 20",
              "c t 10 20");
      assertEquals(List.of(SCT, SMAT), names(PD_DELAY.select(problem(t, 3, D)), t));
      // with a 60 ms threshold it may
      assertEquals(List.of(SCT, SMAT, SMBT), names(PD_DELAY.select(problem(t, 3, pdDelay(60))), t));
    }

    @Test
    void delayTieGoesToMoreBandwidthNotLowerIndex() {
      // candidate 0 s-x-t: 10 ms, abw 10; candidate 1 s-y-z-t: 10 ms, abw 20
      Topology t = topo("s x y z t", "s x 10 5", "x t 10 5", "s y 20 4", "y z 20 3", "z t 20 3");
      assertEquals(
          List.of(List.of("s", "y", "z", "t")), names(PD_DELAY.select(problem(t, 1, D)), t));
    }
  }

  // ---------------------------------------------------------------------------------------------

  @Nested
  class FdBw {
    /** Three disjoint paths: s-x-t 20 ms abw 5, s-y-t 30 ms abw 20, s-z-t 100 ms abw 100. */
    final Topology xyz =
        topo(
            "s x y z t",
            "s x 5 10",
            "x t 5 10",
            "s y 20 15",
            "y t 20 15",
            "s z 100 50",
            "z t 100 50");

    @Test
    void dropsPathsSlowerThanTheAverage() {
      // average 50 ms: s-z-t (100 ms) is dropped although it is the widest
      List<String> sxt = List.of("s", "x", "t");
      List<String> syt = List.of("s", "y", "t");
      assertEquals(List.of(sxt, syt), names(FD_BW.select(problem(xyz, 3, D)), xyz));
      assertEquals(List.of(syt), names(FD_BW.select(problem(xyz, 1, D)), xyz));
      // pd-bw has no such filter
      assertEquals(List.of(List.of("s", "z", "t")), names(PD_BW.select(problem(xyz, 1, D)), xyz));
    }

    @Test
    void acceptsOnlyLinkDisjointPaths() {
      // all three 15 ms (= average, kept); s-m-a-t abw 50, s-m-b-t 40 (shares s-m), s-c-t 10
      Topology t =
          topo(
              "s m a b c t",
              "s m 100 2",
              "m a 50 3",
              "a t 50 10",
              "m b 40 3",
              "b t 40 10",
              "s c 10 7.5",
              "c t 10 7.5");
      Selection s = FD_BW.select(problem(t, 3, D));
      // equal delays: subflows in candidate order
      assertEquals(List.of(SCT, SMAT), names(s, t));
      assertPairwiseDisjoint(s);
    }

    @Test
    void pathOfExactlyAverageDelayIsKeptDespiteRounding() {
      // three parallel links of 0.7 ms: their floating-point average is 0.6999999999999998
      Topology t = topo("s t", "s t 10 0.7", "s t 20 0.7", "s t 30 0.7");
      Selection s = FD_BW.select(problem(t, 3, D));
      assertEquals(3, s.paths().size());
      assertPairwiseDisjoint(s);
    }
  }

  @Nested
  class FdDelay {
    /** Four disjoint paths of 10, 12, 30 and 31 ms. */
    final Topology four =
        topo(
            "s a b c d t",
            "s a 10 5",
            "a t 10 5",
            "s b 10 6",
            "b t 10 6",
            "s c 10 15",
            "c t 10 15",
            "s d 10 15",
            "d t 10 16");

    final List<String> sat = List.of("s", "a", "t");
    final List<String> sbt = List.of("s", "b", "t");
    final List<String> sct = List.of("s", "c", "t");
    final List<String> sdt = List.of("s", "d", "t");

    @Test
    void prefersTheSmallestSpreadOverTheSmallestTotal() {
      // pairs: a+b spread 2 (total 22), c+d spread 1 (total 61)
      Selection s = FD_DELAY.select(problem(four, 2, D));
      assertEquals(List.of(sct, sdt), names(s, four));
      assertPairwiseDisjoint(s);
      // the lowest-total pair is what pd-delay takes
      assertEquals(List.of(sat, sbt), names(PD_DELAY.select(problem(four, 2, D)), four));
      // triples: b+c+d has spread 19, the others 20 or 21
      assertEquals(List.of(sbt, sct, sdt), names(FD_DELAY.select(problem(four, 3, D)), four));
      assertEquals(List.of(sat, sbt, sct, sdt), names(FD_DELAY.select(problem(four, 4, D)), four));
      // never more than there are
      assertEquals(List.of(sat, sbt, sct, sdt), names(FD_DELAY.select(problem(four, 8, D)), four));
    }

    @Test
    void respectsTheDelayBound() {
      // bound 30.5 drops s-d-t: best pair a+b
      assertEquals(
          List.of(sat, sbt), names(FD_DELAY.select(problem(four, 2, fdBound(30.5))), four));
      // bound 30 (inclusive) keeps s-c-t: the only triple
      assertEquals(
          List.of(sat, sbt, sct), names(FD_DELAY.select(problem(four, 3, fdBound(30))), four));
      // bound 29.9: only two paths left
      assertEquals(
          List.of(sat, sbt), names(FD_DELAY.select(problem(four, 3, fdBound(29.9))), four));
      // bound below every path: nothing
      Selection none = FD_DELAY.select(problem(four, 3, fdBound(9)));
      assertTrue(none.isEmpty());
      assertEquals("fd-delay", none.algorithm());
    }

    @Test
    void equalSpreadGoesToTheSmallerTotal() {
      // 10, 12, 30, 32 ms: a+b and c+d both spread 2, a+b total smaller
      Topology t =
          topo(
              "s a b c d t",
              "s d 10 16",
              "d t 10 16",
              "s c 10 15",
              "c t 10 15",
              "s b 10 6",
              "b t 10 6",
              "s a 10 5",
              "a t 10 5");
      assertEquals(List.of(sat, sbt), names(FD_DELAY.select(problem(t, 2, D)), t));
    }

    @Test
    void largerSetBeatsSmallerSpreadAndTiesGoToLowerIndices() {
      // s-m-a-t 10 ms and s-m-b-t 10 ms share s-m; s-c-t 30 ms is disjoint from both.
      // A pair must be {s-c-t, one of them}: spread 20, total 40 either way; candidate indices
      // s-c-t 0, s-m-a-t 1, s-m-b-t 2, so {0, 1}.
      Topology t =
          topo(
              "s m a b c t",
              "s m 10 2",
              "m a 10 3",
              "a t 10 5",
              "m b 10 3",
              "b t 10 5",
              "s c 10 15",
              "c t 10 15");
      Selection s = FD_DELAY.select(problem(t, 2, D));
      assertEquals(List.of(SMAT, SCT), names(s, t));
      assertPairwiseDisjoint(s);
      assertEquals(List.of(SMAT, SCT), names(FD_DELAY.select(problem(t, 3, D)), t));
      assertEquals(List.of(SMAT), names(FD_DELAY.select(problem(t, 1, D)), t));
    }

    @Test
    void findsDisjointPathsAmongHundredsOfCandidates() {
      Random r = new Random(42);
      // 12 switches, a ring plus chords: many paths between 0 and 6
      List<String> links = new ArrayList<>();
      Set<String> seen = new LinkedHashSet<>();
      for (int i = 0; i < 12; i++) {
        seen.add(Math.min(i, (i + 1) % 12) + " " + Math.max(i, (i + 1) % 12));
      }
      while (seen.size() < 26) {
        int a = r.nextInt(12);
        int b = r.nextInt(12);
        if (a != b) {
          seen.add(Math.min(a, b) + " " + Math.max(a, b));
        }
      }
      for (String pair : seen) {
        String[] ab = pair.split(" ");
        int capacity = 1 + r.nextInt(50);
        int delay = 1 + r.nextInt(20);
        links.add("n" + ab[0] + " n" + ab[1] + " " + capacity + " " + delay);
      }
      StringBuilder sw = new StringBuilder();
      for (int i = 0; i < 12; i++) {
        sw.append(i > 0 ? " " : "").append("n").append(i);
      }
      Topology t = topo(sw.toString(), links.toArray(String[]::new));
      SelectionProblem p = problem(t, "n0", "n6", 8, D, null);
      assertTrue(p.size() >= 200, "only " + p.size() + " candidates");
      Selection s = FD_DELAY.select(p);
      assertFalse(s.isEmpty());
      assertPairwiseDisjoint(s);
    }

    @Test
    void findsTheTwoDisjointPathsThatABottleneckInTheMiddleAllows() {
      // two 6-cliques joined by two bridges: thousands of candidates, at most 2 disjoint paths,
      // although the source and the destination each have 5 links
      Random r = new Random(7);
      List<String> links = new ArrayList<>();
      for (int c = 0; c < 2; c++) {
        for (int i = 0; i < 6; i++) {
          for (int k = i + 1; k < 6; k++) {
            links.add("n" + (6 * c + i) + " n" + (6 * c + k) + " 10 " + (1 + r.nextInt(20)));
          }
        }
      }
      links.add("n0 n6 10 7");
      links.add("n1 n7 10 9");
      StringBuilder sw = new StringBuilder();
      for (int i = 0; i < 12; i++) {
        sw.append(i > 0 ? " " : "").append("n").append(i);
      }
      Topology t = topo(sw.toString(), links.toArray(String[]::new));
      SelectionProblem p = problem(t, "n2", "n8", 8, D, null);
      assertTrue(p.size() >= 1000, "only " + p.size() + " candidates");
      Selection s = FD_DELAY.select(p);
      assertEquals(2, s.paths().size());
      assertPairwiseDisjoint(s);
    }
  }

  // ---------------------------------------------------------------------------------------------

  @Nested
  class None {
    /** s-t direct but 100 ms; s-a-t 2 ms. */
    final Topology slowDirect = topo("s a t", "s t 10 100", "s a 10 1", "a t 10 1");

    @Test
    void everySubflowOnTheHopShortestPathIgnoringThrDelay() {
      Selection s = NONE.select(problem(slowDirect, 3, thrDelay(50)));
      List<String> st = List.of("s", "t");
      assertEquals(List.of(st, st, st), names(s, slowDirect));
      assertEquals("none", s.algorithm());
      assertEquals("c1", s.client());
      assertEquals(1, s.distinctPaths().size());
      // the selectors do apply thr_delay
      assertEquals(
          List.of(List.of("s", "a", "t")),
          names(PD_DELAY.select(problem(slowDirect, 3, thrDelay(50))), slowDirect));
    }

    @Test
    void nCopiesOnTheSharedTopology() {
      assertEquals(List.of(SCT, SCT), names(NONE.select(problem(SHARED, 2, D)), SHARED));
    }
  }

  // ---------------------------------------------------------------------------------------------

  @Test
  void noAdmissibleCandidateGivesAnEmptySelection() {
    // every path is slower than 1 ms
    SelectionProblem p = problem(SHARED, 3, thrDelay(1));
    assertEquals(0, p.size());
    for (PathSelector sel : List.of(PD_BW, PD_DELAY, FD_BW, FD_DELAY)) {
      Selection s = sel.select(p);
      assertEquals(Selection.none(sel.name(), "c1"), s, sel.name());
    }
    // plain forwarding does not know thr_delay
    assertEquals(List.of(SCT, SCT, SCT), names(NONE.select(p), SHARED));
  }

  @Test
  void unreachableServerGivesAnEmptySelection() {
    Topology t = topo("s t u", "s t 10 1");
    SelectionProblem p = problem(t, "s", "u", 2, D, null);
    assertTrue(p.allCandidates().isEmpty());
    for (PathSelector sel : ALL) {
      assertEquals(Selection.none(sel.name(), "c1"), sel.select(p), sel.name());
    }
  }

  @Test
  void clientOnTheServerSwitchGetsTheLinklessPath() {
    Topology t = topo("s t", "s t 10 1");
    SelectionProblem p = problem(t, "s", "s", 3, D, null);
    for (PathSelector sel : List.of(PD_BW, PD_DELAY, FD_BW, FD_DELAY)) {
      assertEquals(List.of(List.of("s")), names(sel.select(p), t), sel.name());
    }
    assertEquals(List.of(List.of("s"), List.of("s"), List.of("s")), names(NONE.select(p), t));
  }

  @Test
  void neverMoreThanNPaths() {
    for (int n = 1; n <= 4; n++) {
      SelectionProblem p = problem(SHARED, n, D);
      for (PathSelector sel : ALL) {
        Selection s = sel.select(p);
        assertTrue(s.paths().size() <= n, sel.name() + " gave " + s.paths().size() + " > " + n);
        assertEquals(sel.name(), s.algorithm());
      }
    }
  }
}
