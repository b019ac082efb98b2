package org.mpqoe.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.mpqoe.core.topology.Topology.LinkKey;

/**
 * The reflection: one-way probes over a link a-b and probes that each end's peer sends straight
 * back, combined into the link's delay with every switch's own time cancelled.
 */
class LinkDelayReflectionTest {
  private static final long A = 1;
  private static final long B = 2;
  private static final int PORT_A = 3;
  private static final int PORT_B = 7;
  private static final LinkKey AB = LinkKey.of(A, PORT_A, B, PORT_B);

  /**
   * A link a-b of one-way delay {@code l}: switch x takes {@code o[x]} from the controller to a
   * frame on the cable and {@code i[x]} from the cable to the controller.
   */
  private record Net(double l, double oa, double ia, double ob, double ib) {
    double tab() {
      return oa + l + ib;
    }

    double tba() {
      return ob + l + ia;
    }

    double ra() {
      return oa + 2 * l + ia;
    }

    double rb() {
      return ob + 2 * l + ib;
    }
  }

  /** One round: each direction's one-way probe and each end's reflected probe, plus noise. */
  private static void round(LinkDelayEstimator e, Net n, double[] noise) {
    e.probe(A, PORT_A, B, PORT_B, n.tab() + noise[0]);
    e.probe(B, PORT_B, A, PORT_A, n.tba() + noise[1]);
    e.reflected(A, PORT_A, n.ra() + noise[2]);
    e.reflected(B, PORT_B, n.rb() + noise[3]);
  }

  private static final double[] CLEAN = {0, 0, 0, 0};

  @Property(tries = 300)
  void everySwitchsOwnTimeCancels(
      @ForAll @DoubleRange(min = 0, max = 100) double l,
      @ForAll @DoubleRange(min = 0, max = 200) double oa,
      @ForAll @DoubleRange(min = 0, max = 200) double ia,
      @ForAll @DoubleRange(min = 0, max = 200) double ob,
      @ForAll @DoubleRange(min = 0, max = 200) double ib,
      @ForAll long seed) {
    Net n = new Net(l, oa, ia, ob, ib);
    assertEquals(l, LinkDelayEstimator.reflectedMs(n.ra(), n.rb(), n.tab(), n.tba()), 1e-9);
    // Through the windows: positive noise (scheduling, queueing, cache misses) on most probes,
    // and somewhere in each quantity's window one probe without any.
    LinkDelayEstimator e = new LinkDelayEstimator();
    Random r = new Random(seed);
    int[] clean = new int[4];
    for (int q = 0; q < 4; q++) {
      clean[q] = r.nextInt(LinkDelayEstimator.WINDOW);
    }
    for (int k = 0; k < LinkDelayEstimator.WINDOW; k++) {
      double[] noise = new double[4];
      for (int q = 0; q < 4; q++) {
        noise[q] = k == clean[q] ? 0 : r.nextDouble() * 60;
      }
      round(e, n, noise);
    }
    assertEquals(l, e.delayMs(AB), 1e-9);
  }

  @Example
  void theEchoWouldMissWhatTheSwitchesAdd() {
    // The echo's round trips see only the control channel (2 ms each way); each switch's
    // datapath adds 3 to 5 ms more that only the probes contain.
    Net n = new Net(10, 2 + 3, 2 + 4, 2 + 5, 2 + 3.5);
    LinkDelayEstimator echo = new LinkDelayEstimator();
    LinkDelayEstimator both = new LinkDelayEstimator();
    for (LinkDelayEstimator e : new LinkDelayEstimator[] {echo, both}) {
      e.controlRtt(A, 4);
      e.controlRtt(B, 4);
    }
    for (int k = 0; k < LinkDelayEstimator.WINDOW; k++) {
      echo.probe(A, PORT_A, B, PORT_B, n.tab());
      echo.probe(B, PORT_B, A, PORT_A, n.tba());
      round(both, n, CLEAN);
    }
    System.out.printf(
        "link 10 ms, switches' datapath 3-5 ms: echo subtraction %.2f ms, reflection %.2f ms%n",
        echo.delayMs(AB), both.delayMs(AB));
    assertEquals(16.5, echo.delayMs(AB), 1e-9, "min(T_ab = 20.5, T_ba = 23) - 2 - 2");
    assertEquals(10, both.delayMs(AB), 1e-9);
  }

  @Example
  void unknownUntilEachOfTheFourHasAFullWindow() {
    Net n = new Net(5, 1, 2, 3, 4);
    for (int missing = 0; missing < 4; missing++) {
      LinkDelayEstimator e = new LinkDelayEstimator();
      for (int k = 0; k < LinkDelayEstimator.WINDOW; k++) {
        boolean last = k == LinkDelayEstimator.WINDOW - 1;
        if (!(last && missing == 0)) {
          e.probe(A, PORT_A, B, PORT_B, n.tab());
        }
        if (!(last && missing == 1)) {
          e.probe(B, PORT_B, A, PORT_A, n.tba());
        }
        if (!(last && missing == 2)) {
          e.reflected(A, PORT_A, n.ra());
        }
        if (!(last && missing == 3)) {
          e.reflected(B, PORT_B, n.rb());
        }
        assertTrue(Double.isNaN(e.delayMs(AB)), "quantity " + missing + " short, round " + k);
      }
      switch (missing) {
        case 0 -> e.probe(A, PORT_A, B, PORT_B, n.tab());
        case 1 -> e.probe(B, PORT_B, A, PORT_A, n.tba());
        case 2 -> assertTrue(e.reflected(A, PORT_A, n.ra()), "published with the last");
        default -> assertTrue(e.reflected(B, PORT_B, n.rb()), "published with the last");
      }
      assertEquals(5, e.delayMs(AB), 1e-9, "complete once quantity " + missing + " is");
    }
  }

  @Example
  void aLinkWithReflectedProbesIsNeverEstimatedByTheEchoAlone() {
    // Round trips and one-way probes make a full echo window; one end reflects, the other never
    // does (its switch refused the rule): the link stays unknown rather than mix the methods.
    Net n = new Net(5, 1, 2, 3, 4);
    LinkDelayEstimator e = new LinkDelayEstimator();
    e.controlRtt(A, 1);
    e.controlRtt(B, 1);
    for (int k = 0; k < 2 * LinkDelayEstimator.WINDOW; k++) {
      e.probe(A, PORT_A, B, PORT_B, n.tab());
      e.probe(B, PORT_B, A, PORT_A, n.tba());
      e.reflected(A, PORT_A, n.ra());
    }
    assertTrue(Double.isNaN(e.delayMs(AB)));
  }

  @Example
  void aReflectedProbeBeforeAnyOneWayProbeWaitsForItsLink() {
    Net n = new Net(5, 1, 2, 3, 4);
    LinkDelayEstimator e = new LinkDelayEstimator();
    for (int k = 0; k < LinkDelayEstimator.WINDOW; k++) {
      assertFalse(e.reflected(A, PORT_A, n.ra()));
      assertFalse(e.reflected(B, PORT_B, n.rb()));
    }
    for (int k = 0; k < LinkDelayEstimator.WINDOW; k++) {
      e.probe(A, PORT_A, B, PORT_B, n.tab());
      e.probe(B, PORT_B, A, PORT_A, n.tba());
    }
    assertTrue(Double.isNaN(e.delayMs(AB)), "an estimate needs a round after the link is known");
    e.reflected(A, PORT_A, n.ra());
    assertTrue(e.reflected(B, PORT_B, n.rb()));
    assertEquals(5, e.delayMs(AB), 1e-9);
  }

  @Example
  void aChangedDelayIsPublishedThroughTheHysteresis() {
    Net before = new Net(5, 1, 2, 3, 4);
    Net after = new Net(30, 1, 2, 3, 4);
    LinkDelayEstimator e = new LinkDelayEstimator();
    for (int k = 0; k < LinkDelayEstimator.WINDOW; k++) {
      round(e, before, CLEAN);
    }
    assertEquals(5, e.delayMs(AB), 1e-9);
    // Longer: each quantity's old minimum must leave its window before the estimate moves, and
    // no estimate mixes old and new minima (they would say 0 ms here).
    int rounds = 0;
    while (e.delayMs(AB) == 5 && rounds < 3 * LinkDelayEstimator.WINDOW) {
      round(e, after, CLEAN);
      rounds++;
    }
    System.out.printf("step 5 -> 30 ms published after %d rounds%n", rounds);
    assertEquals(30, e.delayMs(AB), 1e-9);
    // The old minima leave in round WINDOW, then CONFIRM estimates, one per round.
    assertEquals(LinkDelayEstimator.WINDOW + LinkDelayEstimator.CONFIRM - 1, rounds);
  }

  @Example
  void aNegativeCombinationIsZeroAndBadTimesAreRefused() {
    assertEquals(0, LinkDelayEstimator.reflectedMs(10, 10, 12, 12));
    LinkDelayEstimator e = new LinkDelayEstimator();
    assertThrows(IllegalArgumentException.class, () -> e.reflected(A, PORT_A, -1));
    assertThrows(IllegalArgumentException.class, () -> e.reflected(A, PORT_A, Double.NaN));
  }

  @Example
  void theTrackerForgetsReflectedTimesWithTheirLink() {
    LinkStateTracker tracker = new LinkStateTracker(org.mpqoe.core.topology.Topology.empty("none"));
    Net n = new Net(5, 1, 2, 3, 4);
    for (int k = 0; k < LinkDelayEstimator.WINDOW; k++) {
      tracker.lldpSample(A, PORT_A, B, PORT_B, n.tab());
      tracker.lldpSample(B, PORT_B, A, PORT_A, n.tba());
      tracker.lldpReflected(A, PORT_A, n.ra());
      tracker.lldpReflected(B, PORT_B, n.rb());
    }
    assertEquals(5, tracker.delayEstimate(B, PORT_B, A, PORT_A), 1e-9);
    tracker.rebind(org.mpqoe.core.topology.Topology.empty("none"));
    assertTrue(Double.isNaN(tracker.delayEstimate(A, PORT_A, B, PORT_B)));
    tracker.lldpReflected(A, PORT_A, n.ra());
    tracker.lldpSample(A, PORT_A, B, PORT_B, n.tab());
    assertTrue(Double.isNaN(tracker.delayEstimate(A, PORT_A, B, PORT_B)), "windows start over");
  }

  @Example
  void knownEstimatesBecomeTheTopologysDelaysAndUnknownOnesLeaveThemAlone() {
    var t = org.mpqoe.core.topology.TopologyLoader.load("three-path");
    LinkStateTracker tracker = new LinkStateTracker(t);
    var l = t.links().get(0);
    long a = l.a().dpid();
    long b = l.b().dpid();
    int pa = l.portAt(l.a());
    int pb = l.portAt(l.b());
    Net n = new Net(7, 1, 2, 3, 4);
    for (int k = 0; k < LinkDelayEstimator.WINDOW; k++) {
      tracker.lldpSample(a, pa, b, pb, n.tab());
      tracker.lldpSample(b, pb, a, pa, n.tba());
      tracker.lldpReflected(a, pa, n.ra());
      tracker.lldpReflected(b, pb, n.rb());
    }
    double before = tracker.snapshot().delayMs(0);
    assertTrue(tracker.delayKnown(l));
    assertFalse(tracker.delayKnown(t.links().get(1)));
    tracker.latenciesFromEstimates();
    assertEquals(7, tracker.snapshot().delayMs(0), 1e-9, "was " + before);
    assertEquals(t.links().get(1).delayMs(), tracker.snapshot().delayMs(1), 1e-9);
    assertEquals(t.links().get(2).delayMs(), tracker.snapshot().delayMs(2), 1e-9);
  }
}
