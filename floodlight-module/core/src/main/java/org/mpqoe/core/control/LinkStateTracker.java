package org.mpqoe.core.control;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mpqoe.core.path.LinkState;
import org.mpqoe.core.topology.Link;
import org.mpqoe.core.topology.Topology;

/**
 * Live link state for the selectors: capacity from the descriptor (veth port speeds mean nothing),
 * load from periodic port statistics, delay from the descriptor or a latency measurement. A link's
 * load is the busier of its two directions, each measured as the transmitted-bytes rate of the port
 * that sends into the link. Thread-safe.
 *
 * <p>LLDP delays: the runtimes give each switch's control-channel round trips ({@link #controlRtt})
 * and each probe's packet-out to packet-in time ({@link #lldpSample}); {@link LinkDelayEstimator}
 * turns them into a filtered delay per link, {@link #delayEstimate}, NaN while unknown. A runtime
 * that routes on LLDP delays puts that estimate in the network view it builds topologies from (0
 * while unknown, so an unmeasured link never excludes a path by eq. 4), and the topology's delays
 * reach this tracker as they always did ({@link #latency}, or the topology's own). A runtime that
 * also sends reflected probes gives their times ({@link #lldpReflected}); the estimator then takes
 * the link's delay from them and the one-way probes alone, which cancels every switch's part.
 */
public final class LinkStateTracker {
  private record PortKey(long dpid, int port) {}

  private record Sample(long txBytes, long nanos) {}

  private Topology topology;
  private final Map<PortKey, Integer> linkOfPort = new HashMap<>();
  private final Map<PortKey, Sample> last = new HashMap<>();
  private final Map<PortKey, Double> rateMbps = new HashMap<>();

  /** Ports of links that reported themselves down (port status) and have not come up since. */
  private final Set<PortKey> downPorts = new HashSet<>();

  /** Latencies given by {@link #latency}, by link key: they outlive a rebuild of the topology. */
  private final Map<Topology.LinkKey, Double> measured = new HashMap<>();

  /** LLDP delay estimates by link key, and the switches' control-channel round trips. */
  private final LinkDelayEstimator estimator = new LinkDelayEstimator();

  private double[] capacity;
  private double[] delay;

  public LinkStateTracker(Topology topology) {
    rebind(topology);
  }

  /**
   * The topology changed at run time: capacities and delays come from {@code next}, except that a
   * measured latency stays with its link (by key); port-rate samples are per (dpid, port) and carry
   * over, those of ports that are no longer on a link are dropped.
   */
  public synchronized void rebind(Topology next) {
    this.topology = next;
    int n = next.links().size();
    capacity = new double[n];
    delay = new double[n];
    linkOfPort.clear();
    for (Link l : next.links()) {
      capacity[l.index()] = l.capacityMbps();
      delay[l.index()] = measured.getOrDefault(Topology.LinkKey.of(l), l.delayMs());
      for (PortKey end : ends(l)) {
        linkOfPort.put(end, l.index());
      }
    }
    measured.keySet().removeIf(k -> next.indexOf(k) < 0);
    Set<Topology.LinkKey> keys = new HashSet<>();
    next.links().forEach(l -> keys.add(Topology.LinkKey.of(l)));
    Set<Long> dpids = new HashSet<>();
    next.switches().forEach(s -> dpids.add(s.dpid()));
    estimator.retain(keys, dpids);
    last.keySet().retainAll(linkOfPort.keySet());
    rateMbps.keySet().retainAll(linkOfPort.keySet());
    downPorts.retainAll(linkOfPort.keySet());
  }

  /**
   * A port of a link went up or down; returns whether that link is now up, which it is only while
   * both of its ends are. The two ends report separately and in either order: when a link is taken
   * down, one end's status can still say "up" after the other end's said "down", and that must not
   * bring the link back. Ports on no link (host ports, unknown ports) are not recorded; for them
   * the port's own state is returned.
   */
  public synchronized boolean portChanged(long dpid, int port, boolean up) {
    PortKey key = new PortKey(dpid, port);
    Integer link = linkOfPort.get(key);
    if (link == null) {
      return up;
    }
    if (up) {
      downPorts.remove(key);
    } else {
      downPorts.add(key);
    }
    return ends(topology.links().get(link)).stream().noneMatch(downPorts::contains);
  }

  /** The two switch ports of a link. */
  private static List<PortKey> ends(Link l) {
    return List.of(new PortKey(l.a().dpid(), l.portA()), new PortKey(l.b().dpid(), l.portB()));
  }

  /** The link behind a switch port, or -1 for host ports and unknown ports. */
  public synchronized int linkAt(long dpid, int port) {
    return linkOfPort.getOrDefault(new PortKey(dpid, port), -1);
  }

  /**
   * One port-statistics sample. Counters that go backwards (a switch restarted) restart the
   * measurement instead of producing a negative rate.
   */
  public synchronized void portStats(long dpid, int port, long txBytes, long nanoTime) {
    PortKey key = new PortKey(dpid, port);
    if (!linkOfPort.containsKey(key)) {
      return;
    }
    Sample prev = last.put(key, new Sample(txBytes, nanoTime));
    if (prev != null && nanoTime > prev.nanos() && txBytes >= prev.txBytes()) {
      double seconds = (nanoTime - prev.nanos()) / 1e9;
      rateMbps.put(key, (txBytes - prev.txBytes()) * 8 / 1e6 / seconds);
    }
  }

  /** A measured one-way latency (ms) for a link, replacing the descriptor's. */
  public synchronized void latency(int link, double ms) {
    if (!(ms >= 0)) {
      throw new IllegalArgumentException("latency must be >= 0");
    }
    delay[link] = ms;
    measured.put(topology.linkKey(link), ms);
  }

  /**
   * One OpenFlow ECHO round trip (ms) of switch {@code dpid}'s control channel: the request's send
   * time to its reply's arrival, both on the controller's clock.
   */
  public synchronized void controlRtt(long dpid, double rttMs) {
    estimator.controlRtt(dpid, rttMs);
  }

  /** The round trip (ms) taken out of a switch's probes: its window's minimum, NaN before any. */
  public synchronized double controlRtt(long dpid) {
    return estimator.controlRtt(dpid);
  }

  /**
   * One LLDP probe sent out of {@code (srcDpid, srcPort)} and seen on {@code (dstDpid, dstPort)}
   * {@code elapsedMs} after its packet-out (to its packet-in, the controller's clock): the control
   * channel is taken out with the two switches' round trips and the rest goes to the link's filter
   * ({@link LinkDelayEstimator}). Returns the one-way sample, NaN when a switch has no round trip
   * yet (then nothing is recorded). The link need not be in the topology yet.
   */
  public synchronized double lldpSample(
      long srcDpid, int srcPort, long dstDpid, int dstPort, double elapsedMs) {
    return estimator.probe(srcDpid, srcPort, dstDpid, dstPort, elapsedMs);
  }

  /**
   * The LLDP delay (ms) of the cable between the two ports (either order), filtered; NaN while it
   * is unknown (fewer than {@link LinkDelayEstimator#MIN_SAMPLES} samples).
   */
  public synchronized double delayEstimate(long dpidX, int portX, long dpidY, int portY) {
    return estimator.delayMs(Topology.LinkKey.of(dpidX, portX, dpidY, portY));
  }

  /**
   * Whether LLDP has measured this link's delay: its filtered estimate ({@link #delayEstimate}) is
   * published. Whether the topology's delay is that estimate or a descriptor's is the runtime's
   * choice.
   */
  public synchronized boolean delayKnown(Link link) {
    return !Double.isNaN(estimator.delayMs(Topology.LinkKey.of(link)));
  }

  /**
   * Every link of the topology whose LLDP delay is known ({@link #delayKnown}) gets it as its delay
   * ({@link #latency}); the others keep theirs. For a runtime that takes delays from LLDP over a
   * topology it does not rebuild from them (Floodlight with a descriptor and useLldpLatency).
   */
  public synchronized void latenciesFromEstimates() {
    for (Link l : topology.links()) {
      double ms = estimator.delayMs(Topology.LinkKey.of(l));
      if (!Double.isNaN(ms)) {
        latency(l.index(), ms);
      }
    }
  }

  /**
   * One reflected LLDP probe: sent out of {@code (dpid, port)}, sent straight back by the switch at
   * the cable's other end, and seen on the same port {@code elapsedMs} after its packet-out (the
   * controller's clock). Returns whether the published delay of the link at that port changed.
   */
  public synchronized boolean lldpReflected(long dpid, int port, double elapsedMs) {
    return estimator.reflected(dpid, port, elapsedMs);
  }

  /** Current load of a link in Mbit/s. */
  public synchronized double loadMbps(int link) {
    double load = 0;
    for (PortKey end : ends(topology.links().get(link))) {
      load = Math.max(load, rateMbps.getOrDefault(end, 0.0));
    }
    return load;
  }

  /** A snapshot for the selectors. */
  public synchronized LinkState snapshot() {
    int n = capacity.length;
    double[] load = new double[n];
    for (int l = 0; l < n; l++) {
      load[l] = loadMbps(l);
    }
    return new LinkState(capacity, load, delay);
  }
}
