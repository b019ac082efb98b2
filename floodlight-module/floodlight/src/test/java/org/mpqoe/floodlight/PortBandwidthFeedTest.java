package org.mpqoe.floodlight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.control.LinkStateTracker;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyLoader;

/** three-path: link 0 is p1 (dpid 1) port 1 - sv (dpid 4) port 1. */
class PortBandwidthFeedTest {
  private static final Topology TOPO = TopologyLoader.load("three-path");
  private static final long S = 1_000_000_000L;

  private final PortBandwidthFeed feed = new PortBandwidthFeed();
  private final LinkStateTracker links = new LinkStateTracker(TOPO);
  private final PortBandwidthFeed.Sink sink = (d, p, tx, t) -> links.portStats(d, p, tx, t);

  @Test
  void integratedRatesGiveTheCoreFloodlightsRates() {
    feed.sample(1, 1, 5_000_000, 10 * S, sink);
    assertEquals(0.0, links.loadMbps(0), "the first sample only starts the counter");
    feed.sample(1, 1, 1_600_000, 12 * S, sink);
    assertEquals(1.6, links.loadMbps(0), 1e-9);
    feed.sample(1, 1, 800_000, 12 * S + S / 2, sink); // periods need not be equal
    assertEquals(0.8, links.loadMbps(0), 1e-9);
    feed.sample(4, 1, 1_200_000, 3 * S, sink);
    feed.sample(4, 1, 1_200_000, 5 * S, sink);
    assertEquals(1.2, links.loadMbps(0), 1e-9, "sv's direction is busier now");
  }

  @Test
  void countersAreCumulativeBytes() {
    List<Long> bytes = new ArrayList<>();
    PortBandwidthFeed.Sink record = (d, p, tx, t) -> bytes.add(tx);
    feed.sample(2, 3, 999, 0, record);
    feed.sample(2, 3, 8_000, 2 * S, record);
    feed.sample(2, 3, 16_000, 3 * S, record);
    assertEquals(List.of(0L, 2_000L, 4_000L), bytes);
  }

  @Test
  void aSampleSeenTwiceIsPassedOnOnce() {
    List<Long> times = new ArrayList<>();
    PortBandwidthFeed.Sink record = (d, p, tx, t) -> times.add(t);
    assertTrue(feed.sample(1, 1, 100, 5 * S, record));
    assertFalse(feed.sample(1, 1, 100, 5 * S, record));
    assertTrue(feed.sample(1, 2, 100, 5 * S, record), "another port");
    assertEquals(List.of(5 * S, 5 * S), times);
  }
}
