package org.mpqoe.openflow;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.mpqoe.core.control.LldpProbes;
import org.mpqoe.core.topology.NetworkView.LinkView;

/**
 * Link discovery for the standalone runtime, the way Floodlight's LinkDiscoveryManager does it: an
 * LLDP probe is sent out of every switch port (a packet-out), and a probe that comes back as a
 * packet-in on another switch's port is one direction of a link. Links not seen again within the
 * timeout, and links on a port that went down, are removed. Thread-safe.
 *
 * <p>The probes are {@link LldpProbes}'. Only one-way probes (to 01:80:c2:00:00:0e) make links;
 * reflect probes, on their way out or back, never do. A link's latency here is the last probe's
 * receive time minus its send time, so it includes the two control-channel legs and what both
 * switches add; {@link NetworkDiscovery} passes each one, and each reflected probe's time, to the
 * link state tracker, whose {@link org.mpqoe.core.control.LinkDelayEstimator} cancels them.
 */
public final class LldpDiscovery {
  /** What a received probe changed in the link table. */
  public enum Change {
    /** A link that was not known (or moved to other ports). */
    ADDED,
    /** A known link, seen again (its latency updated). */
    REFRESHED
  }

  /** A link and what happened to it. */
  public record Update(Change change, LinkView link) {}

  private record End(long dpid, int port) {}

  private record Entry(LinkView link, long seenNanos) {}

  private final long timeoutNanos;
  private final Map<End, Entry> bySource = new LinkedHashMap<>();

  /**
   * @param timeoutNanos how long a link lives without being seen again (Floodlight: 35 s with a 15
   *     s probe interval)
   */
  public LldpDiscovery(long timeoutNanos) {
    if (timeoutNanos <= 0) {
      throw new IllegalArgumentException("timeout must be positive");
    }
    this.timeoutNanos = timeoutNanos;
  }

  /**
   * A packet-in on {@code (dpid, inPort)} at {@code nowNanos}. When it is one of our one-way
   * probes, the link from the probe's port to this port is recorded (replacing any other link from
   * that port or into this one: a port has one peer) and returned; anything else (reflect probes
   * included) changes nothing.
   */
  public synchronized Optional<Update> received(
      long dpid, int inPort, byte[] frame, long nowNanos) {
    Optional<LldpProbes.Probe> parsed = LldpProbes.parse(frame);
    if (parsed.isEmpty()
        || inPort <= 0
        || LldpProbes.kind(frame).orElse(null) != LldpProbes.Kind.ONE_WAY) {
      return Optional.empty();
    }
    LldpProbes.Probe p = parsed.get();
    if (p.dpid() == dpid && p.port() == inPort) {
      return Optional.empty();
    }
    double latency =
        p.sentNanos().isPresent() && nowNanos >= p.sentNanos().getAsLong()
            ? (nowNanos - p.sentNanos().getAsLong()) / 1e6
            : Double.NaN;
    LinkView link = new LinkView(p.dpid(), p.port(), dpid, inPort, latency);
    End source = new End(p.dpid(), p.port());
    Entry old = bySource.get(source);
    boolean same = old != null && old.link().dstDpid() == dpid && old.link().dstPort() == inPort;
    if (!same) {
      bySource.values().removeIf(e -> e.link().dstDpid() == dpid && e.link().dstPort() == inPort);
    }
    bySource.put(source, new Entry(link, nowNanos));
    return Optional.of(new Update(same ? Change.REFRESHED : Change.ADDED, link));
  }

  /** Removes and returns the links not seen within the timeout before {@code nowNanos}. */
  public synchronized List<LinkView> expire(long nowNanos) {
    return expire(nowNanos, l -> false);
  }

  /**
   * Like {@link #expire(long)}, but the links {@code held} accepts do not expire: they count as
   * seen at {@code nowNanos} (a link on a port that is down carries no probe; it gets a full
   * timeout to be seen again once the port is up).
   */
  public synchronized List<LinkView> expire(
      long nowNanos, java.util.function.Predicate<LinkView> held) {
    bySource.replaceAll((k, e) -> held.test(e.link()) ? new Entry(e.link(), nowNanos) : e);
    return removeIf(e -> nowNanos - e.seenNanos() > timeoutNanos);
  }

  /** True when the link from {@code (dpid, port)} to {@code (peerDpid, peerPort)} is known. */
  public synchronized boolean knows(long dpid, int port, long peerDpid, int peerPort) {
    Entry e = bySource.get(new End(dpid, port));
    return e != null && e.link().dstDpid() == peerDpid && e.link().dstPort() == peerPort;
  }

  /** True when a known link starts or ends at {@code (dpid, port)}. */
  public synchronized boolean linkAt(long dpid, int port) {
    return bySource.values().stream()
        .anyMatch(
            e ->
                (e.link().srcDpid() == dpid && e.link().srcPort() == port)
                    || (e.link().dstDpid() == dpid && e.link().dstPort() == port));
  }

  /** A port went down: removes and returns the links from or into it. */
  public synchronized List<LinkView> portDown(long dpid, int port) {
    return removeIf(
        e ->
            (e.link().srcDpid() == dpid && e.link().srcPort() == port)
                || (e.link().dstDpid() == dpid && e.link().dstPort() == port));
  }

  /** A switch disconnected: removes and returns the links from or into it. */
  public synchronized List<LinkView> switchGone(long dpid) {
    return removeIf(e -> e.link().srcDpid() == dpid || e.link().dstDpid() == dpid);
  }

  /** The directed links known now, in the order they were first seen. */
  public synchronized List<LinkView> links() {
    return bySource.values().stream().map(Entry::link).toList();
  }

  private List<LinkView> removeIf(java.util.function.Predicate<Entry> gone) {
    List<LinkView> removed = new ArrayList<>();
    for (Iterator<Entry> it = bySource.values().iterator(); it.hasNext(); ) {
      Entry e = it.next();
      if (gone.test(e)) {
        removed.add(e.link());
        it.remove();
      }
    }
    return removed;
  }
}
