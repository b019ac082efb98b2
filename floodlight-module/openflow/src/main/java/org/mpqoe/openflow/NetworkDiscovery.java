package org.mpqoe.openflow;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.mpqoe.core.control.FlowAction;
import org.mpqoe.core.control.FlowPlan;
import org.mpqoe.core.control.LldpProbes;
import org.mpqoe.core.packet.Addresses;
import org.mpqoe.core.packet.Frame;
import org.mpqoe.core.topology.DescriptorCheck;
import org.mpqoe.core.topology.Host;
import org.mpqoe.core.topology.HostInterface;
import org.mpqoe.core.topology.Link;
import org.mpqoe.core.topology.NetworkView;
import org.mpqoe.core.topology.NetworkView.AttachmentView;
import org.mpqoe.core.topology.NetworkView.LinkView;
import org.mpqoe.core.topology.NetworkView.PortView;
import org.mpqoe.core.topology.NetworkView.SwitchView;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The standalone runtime's discovery of the network: the ports every switch reports (PORT_DESC,
 * PORT_STATUS), the links {@link LldpDiscovery} finds, and, without a descriptor, where host
 * addresses were seen. From these it builds a {@link NetworkView} and, with {@link
 * TopologyBuilder}, the control plane's topology, handed over with {@code replaceTopology} when the
 * network's shape (switches, links, host attachments) or its differences from the descriptor
 * change.
 *
 * <p>One single-threaded executor does the periodic work (probes out of every up port, link expiry)
 * and every rebuild; rebuilds are coalesced (one runs {@link #COALESCE} after the first event that
 * asked for it). Probes are also sent when a switch reports its ports and when a port comes up; a
 * probe that reveals one direction of a link is answered at once with a probe the other way, so a
 * link is known in both directions within a round trip of both switches connecting.
 *
 * <p>A port that goes down keeps its links: the topology describes the cabling, and the control
 * plane's port-status reaction marks the link down and moves subflows off it (the fast path). A
 * link disappears when it is not seen for the link timeout while its ports are up, or when a switch
 * disconnects.
 *
 * <p>Every probe that comes back is a time of its link: a one-way probe's goes to {@code
 * LinkStateTracker.lldpSample}, a reflected probe's ({@link LldpProbes}, "reflected probes") to
 * {@code LinkStateTracker.lldpReflected}, and the core's estimator combines them so that every
 * switch's own time cancels. The view's link latencies are the filtered delays, NaN (so 0 in a
 * topology without a descriptor) until every window of a link is full.
 *
 * <p>With a descriptor, hosts are the descriptor's, and the first rebuild waits until a switch
 * connected and then no other switch did for one probe interval, so that a network that matches the
 * descriptor never replaces the topology the control plane started with.
 */
final class NetworkDiscovery implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(NetworkDiscovery.class);

  /** How long a rebuild waits for more events after the first one that asked for it. */
  static final Duration COALESCE = Duration.ofMillis(100);

  /**
   * @param lldpInterval probe period
   * @param linkTimeout how long a link lives without being seen (longer than the interval, as
   *     {@link StandaloneController.Settings} checked)
   * @param overlay the descriptor's topology, when there is one
   * @param options how the builder names the topology and turns addresses into hosts
   */
  record Settings(
      Duration lldpInterval,
      Duration linkTimeout,
      Optional<Topology> overlay,
      TopologyBuilder.Options options) {
    Settings {
      Objects.requireNonNull(overlay, "overlay");
      Objects.requireNonNull(options, "options");
    }
  }

  /** What decides whether a rebuild changes the control plane's topology. */
  record Shape(Set<Long> switches, Set<List<Long>> links, Map<String, List<Long>> hosts) {
    static Shape of(Topology t) {
      Set<Long> switches = new TreeSet<>();
      t.switches().forEach(s -> switches.add(s.dpid()));
      Set<List<Long>> links = new java.util.HashSet<>();
      for (Link l : t.links()) {
        List<Long> a = List.of(l.a().dpid(), (long) l.portA());
        List<Long> b = List.of(l.b().dpid(), (long) l.portB());
        boolean ordered = a.get(0) < b.get(0) || (a.get(0).equals(b.get(0)) && a.get(1) < b.get(1));
        links.add(
            ordered
                ? List.of(a.get(0), a.get(1), b.get(0), b.get(1))
                : List.of(b.get(0), b.get(1), a.get(0), a.get(1)));
      }
      Map<String, List<Long>> hosts = new TreeMap<>();
      for (Host h : t.hosts()) {
        for (HostInterface f : h.interfaces()) {
          hosts.put(f.ip(), List.of(f.attachment().dpid(), (long) f.port()));
        }
      }
      return new Shape(switches, links, hosts);
    }
  }

  private final StandaloneController controller;
  private final Settings settings;
  private final LldpDiscovery lldp;
  private final Map<Long, Map<Integer, PortView>> ports = new ConcurrentHashMap<>();
  private final Map<String, AttachmentView> hosts = new ConcurrentHashMap<>();
  private final ScheduledExecutorService loop;
  private final AtomicBoolean rebuildPending = new AtomicBoolean();
  private volatile long lastConnectNanos;
  // Touched by the loop thread only.
  private Shape current;
  private List<DescriptorCheck.Mismatch> reported;
  private boolean settled;

  NetworkDiscovery(StandaloneController controller, Settings settings) {
    this.controller = controller;
    this.settings = settings;
    this.lldp = new LldpDiscovery(settings.linkTimeout().toNanos());
    this.current = Shape.of(controller.plane().topology());
    this.reported = controller.plane().topologyMismatches();
    this.loop =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "mpqoe-discovery");
              t.setDaemon(true);
              return t;
            });
    long period = settings.lldpInterval().toMillis();
    loop.scheduleAtFixedRate(this::round, period, period, TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    loop.shutdownNow();
  }

  /** The links known now (both directions listed separately). */
  List<LinkView> links() {
    return lldp.links();
  }

  /** A switch finished its handshake and reported its ports: probe out of each one that is up. */
  void switchReady(long dpid, List<PortView> reported) {
    lastConnectNanos = System.nanoTime();
    Map<Integer, PortView> m = new ConcurrentHashMap<>();
    reported.forEach(p -> m.put(p.port(), p));
    ports.put(dpid, m);
    for (PortView p : reported) {
      if (p.up()) {
        controller.sendProbe(dpid, p.port());
      }
    }
    requestRebuild();
  }

  /** A PORT_STATUS: the port's new state; {@code null} when the port was deleted. */
  void portChanged(long dpid, int port, PortView now) {
    Map<Integer, PortView> m = ports.get(dpid);
    if (m == null) {
      return;
    }
    PortView before = now == null ? m.remove(port) : m.put(port, now);
    if (now != null && now.up() && (before == null || !before.up())) {
      controller.sendProbe(dpid, port);
    }
    if (now == null && !lldp.portDown(dpid, port).isEmpty()) {
      requestRebuild();
    }
  }

  /** The switch's connection closed: its ports and links are gone. */
  void switchGone(long dpid) {
    ports.remove(dpid);
    if (!lldp.switchGone(dpid).isEmpty()) {
      controller.event("links of switch " + controller.name(dpid) + " gone with its connection");
    }
    requestRebuild();
  }

  /**
   * An LLDP packet-in: records the link when it is one of our probes. A link seen for the first
   * time in this direction is probed back at once when its other direction is not known yet.
   */
  void lldpIn(long dpid, int inPort, byte[] frame) {
    long now = System.nanoTime();
    var back = LldpProbes.reflectedIn(dpid, inPort, frame, now);
    if (back.isPresent()) {
      controller.plane().links().lldpReflected(dpid, inPort, back.getAsDouble());
      if (LOG.isDebugEnabled()) {
        LOG.debug(
            "lldp reflected {}/{} elapsed {} ms",
            StandaloneController.hex(dpid),
            inPort,
            String.format("%.3f", back.getAsDouble()));
      }
      return;
    }
    var update = lldp.received(dpid, inPort, frame, now);
    if (update.isEmpty()) {
      return;
    }
    LinkView l = update.get().link();
    if (!Double.isNaN(l.latencyMs())) {
      double oneWay =
          controller
              .plane()
              .links()
              .lldpSample(l.srcDpid(), l.srcPort(), l.dstDpid(), l.dstPort(), l.latencyMs());
      if (LOG.isDebugEnabled()) {
        LOG.debug(
            "lldp {}/{} -> {}/{} elapsed {} ms one-way {} ms",
            StandaloneController.hex(l.srcDpid()),
            l.srcPort(),
            StandaloneController.hex(l.dstDpid()),
            l.dstPort(),
            String.format("%.3f", l.latencyMs()),
            String.format("%.3f", oneWay));
      }
    }
    if (update.get().change() != LldpDiscovery.Change.ADDED) {
      return;
    }
    controller.event(
        String.format(
            "link %s/%d -> %s/%d discovered",
            controller.name(l.srcDpid()), l.srcPort(), controller.name(l.dstDpid()), l.dstPort()));
    if (!lldp.knows(l.dstDpid(), l.dstPort(), l.srcDpid(), l.srcPort())) {
      controller.sendProbe(l.dstDpid(), l.dstPort());
    }
    requestRebuild();
  }

  /**
   * Any other packet-in: without a descriptor, the sender's address is a host attached to this
   * port, unless the port carries a discovered link (then the packet is in transit).
   */
  void packetIn(long dpid, int inPort, Frame f) {
    if (settings.overlay().isPresent() || f.ethernet() == null) {
      return;
    }
    int ip;
    if (f.arp() != null) {
      ip = f.arp().senderIp();
    } else if (f.ipv4() != null) {
      ip = f.ipv4().src();
    } else {
      return;
    }
    if (ip == 0 || lldp.linkAt(dpid, inPort)) {
      return;
    }
    AttachmentView a =
        new AttachmentView(
            Addresses.formatIpv4(ip), Addresses.formatMac(f.ethernet().src()), dpid, inPort);
    AttachmentView before = hosts.put(a.ip(), a);
    if (!a.equals(before)) {
      controller.event(
          String.format(
              "host %s (%s) seen at %s/%d", a.ip(), a.mac(), controller.name(dpid), inPort));
      requestRebuild();
    }
  }

  /**
   * Without a descriptor, an ARP request for an address the control plane does not know yet is sent
   * out of every edge port (up, no discovered link) of every switch but the one it came in on: the
   * owner's reply shows where it is, and the requester's next try is answered by the control plane.
   * With a descriptor every address is known and nothing is flooded.
   */
  void floodUnknownArp(long dpid, int inPort, byte[] frame) {
    if (settings.overlay().isPresent()) {
      return;
    }
    for (var e : ports.entrySet()) {
      long sw = e.getKey();
      List<FlowAction> out = new ArrayList<>();
      for (PortView p : new TreeMap<>(e.getValue()).values()) {
        if (p.up() && !(sw == dpid && p.port() == inPort) && !lldp.linkAt(sw, p.port())) {
          out.add(new FlowAction.Output(p.port()));
        }
      }
      if (!out.isEmpty()) {
        controller.sendPacketOut(
            new FlowPlan.PacketOut(sw, FlowAction.PORT_CONTROLLER, frame, out));
      }
    }
  }

  /** The network as discovered now. */
  NetworkView view() {
    List<SwitchView> switches = new ArrayList<>();
    for (var e : new TreeMap<>(ports).entrySet()) {
      // The topology is the cabling: a port that is down keeps its links (see the class comment).
      List<PortView> ps =
          e.getValue().values().stream()
              .map(p -> new PortView(p.port(), p.speedKbps(), true))
              .sorted(java.util.Comparator.comparingInt(PortView::port))
              .toList();
      switches.add(new SwitchView(e.getKey(), ps));
    }
    Collection<AttachmentView> seen = settings.overlay().isPresent() ? List.of() : hosts.values();
    // A link's latency is its filtered LLDP delay (NaN while unknown), not the last probe's time.
    var tracker = controller.plane().links();
    List<LinkView> links =
        lldp.links().stream()
            .map(
                l ->
                    new LinkView(
                        l.srcDpid(),
                        l.srcPort(),
                        l.dstDpid(),
                        l.dstPort(),
                        tracker.delayEstimate(l.srcDpid(), l.srcPort(), l.dstDpid(), l.dstPort())))
            .toList();
    return new NetworkView(switches, links, List.copyOf(seen));
  }

  private boolean portDown(long dpid, int port) {
    Map<Integer, PortView> m = ports.get(dpid);
    PortView p = m == null ? null : m.get(port);
    return p != null && !p.up();
  }

  /**
   * The periodic task: probes out of every up port, then link expiry. The probes are spread over
   * the interval, one at a time ({@link LldpProbes#round}): the one-way probe of each port in the
   * first half, its reflect probe in the second, in the same order.
   */
  private void round() {
    try {
      List<LldpProbes.Port> up = new ArrayList<>();
      for (var e : new TreeMap<>(ports).entrySet()) {
        for (PortView p : new TreeMap<>(e.getValue()).values()) {
          if (p.up()) {
            up.add(new LldpProbes.Port(e.getKey(), p.port()));
          }
        }
      }
      for (LldpProbes.Timed t :
          LldpProbes.round(
              up,
              settings.lldpInterval().toNanos(),
              List.of(LldpProbes.Kind.ONE_WAY, LldpProbes.Kind.REFLECT))) {
        probeAt(t.delayNanos(), t.kind(), t.port().dpid(), t.port().port());
      }
      List<LinkView> gone =
          lldp.expire(
              System.nanoTime(),
              l -> portDown(l.srcDpid(), l.srcPort()) || portDown(l.dstDpid(), l.dstPort()));
      for (LinkView l : gone) {
        controller.event(
            String.format(
                "link %s/%d -> %s/%d not seen for %d s: removed",
                controller.name(l.srcDpid()),
                l.srcPort(),
                controller.name(l.dstDpid()),
                l.dstPort(),
                settings.linkTimeout().toSeconds()));
      }
      if (!gone.isEmpty() || !settled || settings.overlay().isEmpty()) {
        requestRebuild();
      }
    } catch (RuntimeException e) {
      LOG.error("discovery round failed", e);
    }
  }

  private void probeAt(long delayNanos, LldpProbes.Kind kind, long dpid, int port) {
    if (delayNanos == 0) {
      controller.sendProbe(kind, dpid, port);
      return;
    }
    loop.schedule(() -> controller.sendProbe(kind, dpid, port), delayNanos, TimeUnit.NANOSECONDS);
  }

  /** Asks for a rebuild; one runs {@link #COALESCE} after the first request that is pending. */
  void requestRebuild() {
    if (rebuildPending.compareAndSet(false, true)) {
      try {
        loop.schedule(this::rebuild, COALESCE.toMillis(), TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        rebuildPending.set(false); // closed
      }
    }
  }

  private void rebuild() {
    rebuildPending.set(false);
    try {
      if (settings.overlay().isPresent() && !settled) {
        long quiet = System.nanoTime() - lastConnectNanos;
        if (ports.isEmpty() || quiet < settings.lldpInterval().toNanos()) {
          return; // the periodic round asks again
        }
      }
      boolean first = !settled;
      settled = true;
      TopologyBuilder.Built b =
          TopologyBuilder.build(view(), settings.overlay(), settings.options());
      Shape shape = Shape.of(b.topology());
      boolean changed = !shape.equals(current);
      // Without a descriptor an unchanged rebuild still passes the LLDP latencies on; with one,
      // the first check (unchanged or not) records that the network was compared.
      boolean hand =
          changed || first || settings.overlay().isEmpty() || !b.mismatches().equals(reported);
      if (!hand) {
        return;
      }
      FlowPlan plan = controller.plane().replaceTopology(b.topology(), b.mismatches());
      // A rebuilt topology has every link up: tell it again the state of every port, so that a
      // link with a port down is down again and a port that came back while its switch was away
      // no longer counts as down.
      for (var e : changed ? ports.entrySet() : Set.<Map.Entry<Long, Map<Integer, PortView>>>of()) {
        for (PortView p : e.getValue().values()) {
          plan = plan.then(controller.plane().portStatus(e.getKey(), p.port(), p.up()));
        }
      }
      controller.apply(plan);
      if (changed) {
        Topology t = b.topology();
        controller.event(
            String.format(
                "topology %s: %d switches, %d links, %d hosts, %d mismatch(es)",
                t.name(),
                t.switches().size(),
                t.links().size(),
                t.hosts().size(),
                b.mismatches().size()));
      }
      if (!b.mismatches().equals(reported)) {
        for (DescriptorCheck.Mismatch m : b.mismatches()) {
          if (!reported.contains(m)) {
            LOG.warn("topology differs from the descriptor: {}", m);
            controller.event("mismatch " + m);
          }
        }
      }
      current = shape;
      reported = b.mismatches();
    } catch (RuntimeException e) {
      LOG.error("topology rebuild failed", e);
    }
  }
}
