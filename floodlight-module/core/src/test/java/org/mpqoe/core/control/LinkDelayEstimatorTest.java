package org.mpqoe.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.path.LinkState;
import org.mpqoe.core.topology.NetworkView;
import org.mpqoe.core.topology.NetworkView.LinkView;
import org.mpqoe.core.topology.NetworkView.PortView;
import org.mpqoe.core.topology.NetworkView.SwitchView;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.Topology.LinkKey;
import org.mpqoe.core.topology.TopologyBuilder;

class LinkDelayEstimatorTest {
  private static final LinkKey AB = LinkKey.of(1, 1, 2, 1);

  private static void feed(LinkDelayEstimator e, double... samples) {
    for (double s : samples) {
      e.sample(AB, s);
    }
  }

  @Test
  void theControlChannelIsTakenOutWithHalfOfEachEndsRoundTrip() {
    assertEquals(20.0, LinkDelayEstimator.oneWayMs(35, 10, 20), 1e-9);
    assertEquals(0.0, LinkDelayEstimator.oneWayMs(8, 10, 20), "clamped at 0");
  }

  @Test
  void aSwitchsLegIsHalfItsSmallestRecentRoundTrip() {
    LinkDelayEstimator e = new LinkDelayEstimator();
    assertTrue(Double.isNaN(e.controlRtt(1)));
    e.controlRtt(1, 30);
    e.controlRtt(1, 6);
    e.controlRtt(1, 50);
    assertEquals(6, e.controlRtt(1));
    // The smallest leaves the window after RTT_WINDOW newer round trips.
    for (int i = 0; i < LinkDelayEstimator.RTT_WINDOW; i++) {
      e.controlRtt(1, 12);
    }
    assertEquals(12, e.controlRtt(1));
  }

  @Test
  void aProbeWithoutBothRoundTripsIsNoSample() {
    LinkDelayEstimator e = new LinkDelayEstimator();
    e.controlRtt(1, 10);
    assertTrue(Double.isNaN(e.probe(1, 1, 2, 1, 40)));
    e.controlRtt(2, 20);
    assertEquals(25, e.probe(1, 1, 2, 1, 40), 1e-9);
    assertEquals(Set.of(AB), e.links());
  }

  @Test
  void aLinkIsUnknownUntilItHasEnoughSamples() {
    LinkDelayEstimator e = new LinkDelayEstimator();
    assertTrue(Double.isNaN(e.delayMs(AB)));
    for (int i = 1; i < LinkDelayEstimator.MIN_SAMPLES; i++) {
      assertFalse(e.sample(AB, 10));
      assertTrue(Double.isNaN(e.delayMs(AB)), "unknown after " + i + " sample(s)");
    }
    assertTrue(e.sample(AB, 10));
    assertEquals(10, e.delayMs(AB));
  }

  @Test
  void outliersAboveTheFloorDoNotMoveIt() {
    LinkDelayEstimator e = new LinkDelayEstimator();
    feed(e, 10.2, 10.0, 10.4, 10.1, 10.3, 10.2, 10.5, 10.1);
    assertEquals(10.0, e.delayMs(AB));
    // Controller-side stalls: large, positive, frequent.
    feed(e, 60, 10.3, 25, 48, 10.1, 33, 10.2, 50, 21, 10.4, 45);
    assertEquals(10.0, e.delayMs(AB));
  }

  @Test
  void highProbesOfTheFirstSecondsDoNotDecideAlone() {
    // Measured: the first probes after the switches connected were high; published at once,
    // the hysteresis then held them against later estimates within 10 %.
    LinkDelayEstimator e = new LinkDelayEstimator();
    feed(e, 31.9, 33, 35, 31.9, 28.5, 28.6, 28.5, 28.7);
    assertEquals(28.5, e.delayMs(AB));
  }

  @Test
  void aSmallChangeIsNoChange() {
    LinkDelayEstimator e = new LinkDelayEstimator();
    feed(e, 20, 20, 20, 20, 20, 20, 20, 20);
    // Within max(1 ms, 10 %) of 20: the floor moves to 21.5, the published delay stays.
    for (int i = 0; i < 3 * LinkDelayEstimator.WINDOW; i++) {
      e.sample(AB, 21.5);
    }
    assertEquals(20, e.delayMs(AB));
    // Below 10 ms the 1 ms floor of the tolerance applies: 5 -> 5.9 is no change either.
    LinkDelayEstimator f = new LinkDelayEstimator();
    LinkKey k = LinkKey.of(3, 1, 4, 1);
    for (int i = 0; i < 3 * LinkDelayEstimator.WINDOW; i++) {
      f.sample(k, i < LinkDelayEstimator.MIN_SAMPLES ? 5 : 5.9);
    }
    assertEquals(5, f.delayMs(k));
  }

  @Test
  void aStepUpIsPublishedOnceConfirmed() {
    LinkDelayEstimator e = new LinkDelayEstimator();
    feed(e, 5, 5, 5, 5, 5, 5, 5, 5);
    int changedAfter = -1;
    for (int i = 1; i <= 3 * LinkDelayEstimator.WINDOW && changedAfter < 0; i++) {
      if (e.sample(AB, 30)) {
        changedAfter = i;
      } else {
        assertEquals(5, e.delayMs(AB), "unchanged after " + i + " new samples");
      }
    }
    // The old floor leaves the window after WINDOW samples, then CONFIRM estimates in a row.
    assertEquals(LinkDelayEstimator.WINDOW + LinkDelayEstimator.CONFIRM - 1, changedAfter);
    assertEquals(30, e.delayMs(AB));
    System.out.printf("step 5 -> 30 ms published after %d samples%n", changedAfter);
  }

  @Test
  void aStepDownIsPublishedAfterConfirmingEstimates() {
    LinkDelayEstimator e = new LinkDelayEstimator();
    feed(e, 40, 40, 40, 40, 40, 40, 40, 40);
    assertFalse(e.sample(AB, 10));
    assertFalse(e.sample(AB, 10));
    assertTrue(e.sample(AB, 10));
    assertEquals(10, e.delayMs(AB));
  }

  @Test
  void badInputIsRefused() {
    LinkDelayEstimator e = new LinkDelayEstimator();
    assertThrows(IllegalArgumentException.class, () -> e.controlRtt(1, -1));
    assertThrows(IllegalArgumentException.class, () -> e.controlRtt(1, Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> e.sample(AB, Double.POSITIVE_INFINITY));
    assertThrows(IllegalArgumentException.class, () -> e.probe(1, 1, 2, 1, -3));
  }

  @Test
  void theTrackerFiltersProbesAndAnUnknownDelayReadsZero() {
    // Two switches, one cable between their ports 1: a discovered topology as the runtimes make.
    NetworkView view =
        new NetworkView(
            List.of(
                new SwitchView(1, List.of(new PortView(1, 10_000_000, true))),
                new SwitchView(2, List.of(new PortView(1, 10_000_000, true)))),
            List.of(new LinkView(1, 1, 2, 1, Double.NaN), new LinkView(2, 1, 1, 1, Double.NaN)),
            List.of());
    Topology t =
        TopologyBuilder.build(
                view,
                DiscoveryConfig.DEFAULTS.withServers(List.of("10.0.1.1")).topologyOptions(false))
            .topology();
    LinkStateTracker tracker = new LinkStateTracker(t);
    assertEquals(0, tracker.snapshot().delayMs(0), "unknown reads 0");
    assertTrue(Double.isNaN(tracker.delayEstimate(1, 1, 2, 1)));
    // Echo: 8 ms on switch 1, 12 ms on switch 2; probes take 10 ms of control channel more.
    tracker.controlRtt(1, 8);
    tracker.controlRtt(2, 12);
    for (int i = 0; i < LinkDelayEstimator.MIN_SAMPLES; i++) {
      assertEquals(5, tracker.lldpSample(i % 2 == 0 ? 1 : 2, 1, i % 2 == 0 ? 2 : 1, 1, 15), 1e-9);
    }
    assertEquals(5, tracker.delayEstimate(2, 1, 1, 1), 1e-9, "either order of the ends");
    // The estimate reaches the selectors through the topology's delays (latency or rebind).
    tracker.latency(0, tracker.delayEstimate(1, 1, 2, 1));
    LinkState s = tracker.snapshot();
    assertEquals(5, s.delayMs(0), 1e-9);
    // A rebind without the link forgets its samples and the switches' round trips.
    tracker.rebind(Topology.empty("none"));
    assertTrue(Double.isNaN(tracker.delayEstimate(1, 1, 2, 1)));
    assertTrue(Double.isNaN(tracker.lldpSample(1, 1, 2, 1, 15)));
  }
}
