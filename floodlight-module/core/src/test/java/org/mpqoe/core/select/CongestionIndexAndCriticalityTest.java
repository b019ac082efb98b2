package org.mpqoe.core.select;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Scale;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.path.CandidatePaths;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyLoader;

/** The congestion index and link criticality on examples checked by hand. */
class CongestionIndexAndCriticalityTest {
  /** A square a-b-d / a-c-d with a diagonal b-c. Links: 0 a-b, 1 b-d, 2 a-c, 3 c-d, 4 b-c. */
  static final Topology SQUARE =
      TopologyLoader.parse(
          """
          {"schema":1,"name":"square","description":"square with a diagonal",
           "switches":[{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d"}],
           "links":[{"a":"a","b":"b","capacityMbps":10,"delayMs":1},
                    {"a":"b","b":"d","capacityMbps":10,"delayMs":1},
                    {"a":"a","b":"c","capacityMbps":10,"delayMs":1},
                    {"a":"c","b":"d","capacityMbps":10,"delayMs":1},
                    {"a":"b","b":"c","capacityMbps":10,"delayMs":1}]}
          """,
          "square");

  @Test
  void fortzThorupAtItsBreakpoints() {
    // Hand-computed: slopes 1, 3, 10, 70, 500, 5000 from 0, 1/3, 2/3, 9/10, 1, 11/10.
    assertEquals(0, CongestionIndex.of(0), 1e-12);
    assertEquals(0.25, CongestionIndex.of(0.25), 1e-12);
    assertEquals(1.0 / 3, CongestionIndex.of(1.0 / 3), 1e-12);
    assertEquals(1.0 / 3 + 3 * (0.5 - 1.0 / 3), CongestionIndex.of(0.5), 1e-12); // 0.8333
    assertEquals(4.0 / 3, CongestionIndex.of(2.0 / 3), 1e-12);
    assertEquals(4.0 / 3 + 10 * (0.9 - 2.0 / 3), CongestionIndex.of(0.9), 1e-12); // 3.6667
    assertEquals(32.0 / 3, CongestionIndex.of(1.0), 1e-12); // the classic 10 2/3 at capacity
    assertEquals(32.0 / 3 + 50, CongestionIndex.of(1.1), 1e-9); // 60.667
    assertEquals(32.0 / 3 + 50 + 500, CongestionIndex.of(1.2), 1e-9);
    assertEquals(0, CongestionIndex.of(-1), 1e-12);
    assertEquals(CongestionIndex.of(0.75), CongestionIndex.of(1.5, 2.0), 1e-12);
  }

  @Property
  void congestionIndexIsIncreasingAndConvex(
      @ForAll @DoubleRange(min = 0, max = 3) @Scale(6) double u,
      @ForAll @DoubleRange(min = 0.001, max = 1) @Scale(6) double h) {
    double f0 = CongestionIndex.of(u);
    double f1 = CongestionIndex.of(u + h);
    double f2 = CongestionIndex.of(u + 2 * h);
    assertTrue(f1 > f0, "increasing");
    assertTrue(f2 - f1 >= f1 - f0 - 1e-9, "convex: slopes never decrease");
  }

  @Test
  void criticalityOfTwoDemandsOnTheSquare() {
    CandidatePaths cp = new CandidatePaths(SQUARE, 8);
    List<Path> ad = cp.between(SQUARE.switches().get(0), SQUARE.switches().get(3));
    List<Path> bd = cp.between(SQUARE.switches().get(1), SQUARE.switches().get(3));
    // First two shortest of (a, d): a-b-d and a-c-d; of (b, d): b-d and b-c-d.
    assertEquals("[0, 1, 3]", ad.get(0).toString());
    assertEquals("[0, 2, 3]", ad.get(1).toString());
    assertEquals("[1, 3]", bd.get(0).toString());
    assertEquals("[1, 2, 3]", bd.get(1).toString());
    LinkCriticality c = LinkCriticality.of(5, List.of(ad, bd), 2);
    // By hand: a-b 1/2 (a-b-d), b-d 1/2 + 1/2, a-c 1/2, c-d 1/2 + 1/2, b-c 1/2 (b-c-d).
    assertArrayEquals(new double[] {0.5, 1.0, 0.5, 1.0, 0.5}, c.values(), 1e-12);
    assertEquals(0.5, c.normalised(0), 1e-12);
    assertEquals(1.0, c.normalised(3), 1e-12);
    // k = 1: only the shortest path of each demand counts, wholly.
    assertArrayEquals(
        new double[] {1, 2, 0, 0, 0}, LinkCriticality.of(5, List.of(ad, bd), 1).values(), 1e-12);
    // k larger than the paths a demand has: each path still counts 1/k.
    assertArrayEquals(
        new double[] {0, 0.25, 0, 0, 0},
        LinkCriticality.of(5, List.of(List.of(bd.get(0))), 4).values(),
        1e-12);
    assertEquals(0, LinkCriticality.none(5).normalised(2));
    assertThrows(IllegalArgumentException.class, () -> LinkCriticality.of(5, List.of(), 0));
  }

  @Test
  void criticalityIsRecomputedOnlyEveryIntervalT() {
    CandidatePaths cp = new CandidatePaths(SQUARE, 8);
    QomraBooks books = new QomraBooks();
    List<Path> ad = cp.between(SQUARE.switches().get(0), SQUARE.switches().get(3));
    books.clock(0);
    assertArrayEquals(new double[5], books.criticality(5, 2, 10).values(), "nothing recorded");
    books
        .store()
        .put(
            new ConnectionStore.Entry(
                "x -> y", 0, 3, List.of(), List.of(), ad.subList(0, 2), true));
    books.clock(9.9);
    assertArrayEquals(new double[5], books.criticality(5, 2, 10).values(), "not yet: t = 10 s");
    books.clock(10);
    assertArrayEquals(
        new double[] {0.5, 0.5, 0.5, 0.5, 0}, books.criticality(5, 2, 10).values(), 1e-12);
    assertEquals(2, books.criticalityComputations());
  }
}
