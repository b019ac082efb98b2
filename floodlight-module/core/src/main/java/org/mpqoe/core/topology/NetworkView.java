package org.mpqoe.core.topology;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.mpqoe.core.packet.Addresses;

/**
 * The network as a controller discovered it: switches with their ports and advertised speeds,
 * directed links seen by LLDP with their measured latency, and where host addresses were seen. It
 * knows no controller: the Floodlight adapter fills it from Floodlight's services, the standalone
 * runtime from its own LLDP probes. {@link TopologyBuilder} turns it into a {@link Topology}.
 *
 * @param switches the connected switches, each once
 * @param links directed switch-to-switch links, as LLDP reports them (one per direction)
 * @param attachments where host addresses were seen
 */
public record NetworkView(
    List<SwitchView> switches, List<LinkView> links, List<AttachmentView> attachments) {

  /** A port of a switch; {@code speedKbps} is OpenFlow's curr_speed (kbit/s), 0 when unknown. */
  public record PortView(int port, long speedKbps, boolean up) {
    public PortView {
      if (port <= 0) {
        throw new IllegalArgumentException("port number must be positive, not " + port);
      }
      if (speedKbps < 0) {
        throw new IllegalArgumentException("port " + port + ": speed must be >= 0 kbit/s");
      }
    }
  }

  /** A connected switch and its ports. */
  public record SwitchView(long dpid, List<PortView> ports) {
    public SwitchView {
      ports = List.copyOf(ports);
      Set<Integer> seen = new HashSet<>();
      for (PortView p : ports) {
        if (!seen.add(p.port())) {
          throw new IllegalArgumentException(
              String.format("switch %016x lists port %d twice", dpid, p.port()));
        }
      }
    }
  }

  /**
   * One direction of a switch-to-switch link.
   *
   * @param latencyMs LLDP-measured one-way latency in ms, {@code Double.NaN} when not measured
   */
  public record LinkView(long srcDpid, int srcPort, long dstDpid, int dstPort, double latencyMs) {
    public LinkView {
      if (srcPort <= 0 || dstPort <= 0) {
        throw new IllegalArgumentException(
            "link ports must be positive: " + describe(srcDpid, srcPort, dstDpid, dstPort));
      }
      if (srcDpid == dstDpid && srcPort == dstPort) {
        throw new IllegalArgumentException(
            "link from a port to itself: " + describe(srcDpid, srcPort, dstDpid, dstPort));
      }
      if (latencyMs < 0 || Double.isInfinite(latencyMs)) {
        throw new IllegalArgumentException("link latency must be a number >= 0 or NaN");
      }
    }
  }

  /** A host address seen behind a switch port (an attachment point). */
  public record AttachmentView(String ip, String mac, long dpid, int port) {
    public AttachmentView {
      if (ip == null) {
        throw new IllegalArgumentException("attachment without an IPv4 address");
      }
      Addresses.parseIpv4(ip);
      if (port <= 0) {
        throw new IllegalArgumentException("attachment of " + ip + ": port must be positive");
      }
    }
  }

  /**
   * A link seen in both directions: the cable between two ports. Ends are ordered so that {@code
   * (dpidA, portA) < (dpidB, portB)}.
   *
   * @param latencyMs the smaller of the two directions' latencies (each is the link delay plus
   *     control-channel time, so the smaller is the better estimate), NaN when neither was measured
   */
  public record DuplexLink(long dpidA, int portA, long dpidB, int portB, double latencyMs) {
    /** True when this link joins the two switches, in either order. */
    public boolean joins(long x, long y) {
      return (dpidA == x && dpidB == y) || (dpidA == y && dpidB == x);
    }

    /** Its port on switch {@code dpid} (the a end when both ends are on it). */
    public int portOn(long dpid) {
      return dpidA == dpid ? portA : portB;
    }

    @Override
    public String toString() {
      return describe(dpidA, portA, dpidB, portB);
    }
  }

  public NetworkView {
    switches = List.copyOf(switches);
    links = List.copyOf(links);
    attachments = List.copyOf(attachments);
    Set<Long> dpids = new HashSet<>();
    for (SwitchView s : switches) {
      if (!dpids.add(s.dpid())) {
        throw new IllegalArgumentException(String.format("switch %016x listed twice", s.dpid()));
      }
    }
  }

  /** The view of switch {@code dpid}, if it is connected. */
  public Optional<SwitchView> switchView(long dpid) {
    return switches.stream().filter(s -> s.dpid() == dpid).findFirst();
  }

  /** The port {@code port} of switch {@code dpid}, if both are known. */
  public Optional<PortView> port(long dpid, int port) {
    return switchView(dpid)
        .flatMap(s -> s.ports().stream().filter(p -> p.port() == port).findFirst());
  }

  /**
   * The links seen in both directions between connected switches whose ports are not known to be
   * down, ordered by their ends. Only these can carry a subflow: its rules forward both directions
   * over each link.
   */
  public List<DuplexLink> duplexLinks() {
    return pair().duplex;
  }

  /** Directed links whose reverse direction was not seen (or whose ends are down or unknown). */
  public List<LinkView> oneWayLinks() {
    return pair().oneWay;
  }

  private record Pairing(List<DuplexLink> duplex, List<LinkView> oneWay) {}

  private record End(long dpid, int port) {}

  private Pairing pair() {
    Map<List<End>, LinkView> byEnds = new HashMap<>();
    for (LinkView l : links) {
      byEnds.put(List.of(new End(l.srcDpid(), l.srcPort()), new End(l.dstDpid(), l.dstPort())), l);
    }
    List<DuplexLink> duplex = new ArrayList<>();
    List<LinkView> oneWay = new ArrayList<>();
    Set<LinkView> done = new HashSet<>();
    for (LinkView l : links) {
      if (!done.add(l)) {
        continue;
      }
      LinkView back =
          byEnds.get(List.of(new End(l.dstDpid(), l.dstPort()), new End(l.srcDpid(), l.srcPort())));
      boolean usable = usable(l.srcDpid(), l.srcPort()) && usable(l.dstDpid(), l.dstPort());
      if (back == null || !usable) {
        oneWay.add(l);
        continue;
      }
      done.add(back);
      double latency = minLatency(l.latencyMs(), back.latencyMs());
      boolean forward =
          l.srcDpid() < l.dstDpid() || (l.srcDpid() == l.dstDpid() && l.srcPort() < l.dstPort());
      duplex.add(
          forward
              ? new DuplexLink(l.srcDpid(), l.srcPort(), l.dstDpid(), l.dstPort(), latency)
              : new DuplexLink(l.dstDpid(), l.dstPort(), l.srcDpid(), l.srcPort(), latency));
    }
    duplex.sort(
        Comparator.comparingLong(DuplexLink::dpidA)
            .thenComparingInt(DuplexLink::portA)
            .thenComparingLong(DuplexLink::dpidB)
            .thenComparingInt(DuplexLink::portB));
    return new Pairing(List.copyOf(duplex), List.copyOf(oneWay));
  }

  /** A link end is usable on a connected switch unless its port is known and down. */
  private boolean usable(long dpid, int port) {
    return switchView(dpid).isPresent() && port(dpid, port).map(PortView::up).orElse(true);
  }

  private static double minLatency(double x, double y) {
    if (Double.isNaN(x)) {
      return y;
    }
    return Double.isNaN(y) ? x : Math.min(x, y);
  }

  static String describe(long srcDpid, int srcPort, long dstDpid, int dstPort) {
    return String.format("%016x:%d-%016x:%d", srcDpid, srcPort, dstDpid, dstPort);
  }
}
