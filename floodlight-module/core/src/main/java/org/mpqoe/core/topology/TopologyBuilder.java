package org.mpqoe.core.topology;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.mpqoe.core.packet.Addresses;
import org.mpqoe.core.topology.NetworkView.AttachmentView;
import org.mpqoe.core.topology.NetworkView.DuplexLink;
import org.mpqoe.core.topology.NetworkView.PortView;

/**
 * Builds a {@link Topology} from a discovered {@link NetworkView}, optionally overlaid with a
 * descriptor. Pure: the same view and overlay give the same topology, link indices included.
 *
 * <ul>
 *   <li><b>Links</b> are the duplex links of the view (seen by LLDP in both directions, ports not
 *       down); a link that was not discovered is never part of the result, so no rule can be
 *       installed over it. With an overlay, the links that {@link DescriptorCheck} matched to a
 *       descriptor link come first, in descriptor order, with the descriptor's capacity, delay and
 *       loss (emulated links are shaped by tc/netem, which port speeds do not show); the others
 *       follow in port order.
 *   <li><b>Capacity</b> without an overlay: the smaller curr_speed of the two ports (kbit/s, so
 *       divided by 1000), or {@link Options#defaultCapacityMbps} when a port does not report one.
 *   <li><b>Delay</b> without an overlay: the LLDP latency ({@link DuplexLink#latencyMs()}), 0 when
 *       not measured.
 *   <li><b>Switches</b>: the descriptor's (named, in its order; a missing one stays, unreachable)
 *       then the other connected switches in dpid order, named {@code s<dpid>} like Mininet's.
 *   <li><b>Hosts</b>: the descriptor's, placed where their address was seen when it was seen on a
 *       host port of a known switch; without an overlay, from the attachments, grouped into hosts
 *       by {@link Options#grouping()} and made servers when their address is in {@link
 *       Options#serverIps()}.
 * </ul>
 */
public final class TopologyBuilder {
  private TopologyBuilder() {}

  /** How attachments (one per address) become hosts when there is no descriptor. */
  public enum Grouping {
    /**
     * The address plan of {@code topologies/README.md}: interface i of host K has address {@code
     * x.y.i.K}, so addresses with the same last octet are one host, ordered by the third octet.
     */
    ADDRESS_PLAN,
    /** Each address is a host of its own (one interface each). */
    PER_ADDRESS;

    /** The name settings use: {@code address-plan}, {@code per-address}. */
    public String label() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The grouping labelled {@code label}. */
    public static Grouping parse(String label) {
      for (Grouping g : values()) {
        if (g.label().equals(label)) {
          return g;
        }
      }
      throw new IllegalArgumentException("unknown host grouping " + label);
    }
  }

  /**
   * Made from the controller's settings by {@code DiscoveryConfig.topologyOptions}.
   *
   * @param name the topology's name when there is no overlay
   * @param defaultCapacityMbps capacity of a link whose ports report no speed
   * @param serverIps addresses of servers (without an overlay); every other address is a client
   * @param grouping how addresses become hosts (without an overlay)
   */
  public record Options(
      String name, double defaultCapacityMbps, Set<String> serverIps, Grouping grouping) {
    public Options {
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException("a discovered topology needs a name");
      }
      if (!(defaultCapacityMbps > 0) || Double.isInfinite(defaultCapacityMbps)) {
        throw new IllegalArgumentException("defaultCapacityMbps must be a positive number");
      }
      serverIps = Set.copyOf(serverIps);
      if (grouping == null) {
        throw new IllegalArgumentException("grouping is missing");
      }
    }
  }

  /** A built topology and, with an overlay, how the network differs from the descriptor. */
  public record Built(Topology topology, List<DescriptorCheck.Mismatch> mismatches) {
    public Built {
      mismatches = List.copyOf(mismatches);
    }
  }

  /** The topology of {@code view} alone. */
  public static Built build(NetworkView view, Options options) {
    return build(view, Optional.empty(), options);
  }

  /** The topology of {@code view}, with the descriptor topology {@code overlay} when present. */
  public static Built build(NetworkView view, Optional<Topology> overlay, Options options) {
    return overlay.isPresent()
        ? withOverlay(view, overlay.get(), options)
        : discovered(view, options);
  }

  private static Built withOverlay(NetworkView view, Topology d, Options options) {
    DescriptorCheck.Result check = DescriptorCheck.check(d, view);
    List<SwitchNode> switches = new ArrayList<>(d.switches());
    Map<Long, SwitchNode> byDpid = new HashMap<>();
    switches.forEach(s -> byDpid.put(s.dpid(), s));
    view.switches().stream()
        .map(NetworkView.SwitchView::dpid)
        .filter(dpid -> !byDpid.containsKey(dpid))
        .sorted()
        .forEach(dpid -> add(switches, byDpid, dpid));

    List<Link> links = new ArrayList<>();
    for (Link l : d.links()) {
      DuplexLink found = check.found().get(l.index());
      if (found != null) {
        links.add(
            new Link(
                links.size(),
                l.a(),
                found.portOn(l.a().dpid()),
                l.b(),
                DescriptorCheck.portOnOtherEnd(found, l),
                l.capacityMbps(),
                l.delayMs(),
                l.lossPct()));
      }
    }
    for (DuplexLink x : check.extra()) {
      links.add(measured(links.size(), x, byDpid, view, options));
    }

    Map<String, AttachmentView> seen = hostAttachments(view, links, byDpid);
    List<Host> hosts = new ArrayList<>();
    for (Host h : d.hosts()) {
      List<HostInterface> ifaces = new ArrayList<>();
      for (HostInterface f : h.interfaces()) {
        AttachmentView a = seen.get(f.ip());
        ifaces.add(
            a == null
                ? f
                : new HostInterface(
                    f.ip(),
                    f.mac(),
                    byDpid.get(a.dpid()),
                    a.port(),
                    f.capacityMbps(),
                    f.delayMs(),
                    f.lossPct()));
      }
      hosts.add(new Host(h.name(), h.role(), ifaces));
    }
    Topology t =
        new Topology(
            d.name(),
            d.description(),
            d.approximation(),
            switches,
            links,
            hosts,
            d.clientSwitches(),
            d.linkModel().orElse(null),
            d.descriptor());
    return new Built(t, check.mismatches());
  }

  private static Built discovered(NetworkView view, Options options) {
    List<SwitchNode> switches = new ArrayList<>();
    Map<Long, SwitchNode> byDpid = new HashMap<>();
    view.switches().stream()
        .map(NetworkView.SwitchView::dpid)
        .sorted()
        .forEach(dpid -> add(switches, byDpid, dpid));
    List<Link> links = new ArrayList<>();
    for (DuplexLink x : view.duplexLinks()) {
      links.add(measured(links.size(), x, byDpid, view, options));
    }
    List<Host> hosts = hosts(hostAttachments(view, links, byDpid).values(), byDpid, options);
    Set<Long> serverSwitches = new HashSet<>();
    hosts.stream()
        .filter(h -> h.role() == Host.Role.SERVER)
        .forEach(h -> h.interfaces().forEach(f -> serverSwitches.add(f.attachment().dpid())));
    List<SwitchNode> clientSwitches =
        switches.stream().filter(s -> !serverSwitches.contains(s.dpid())).toList();
    Topology t =
        new Topology(
            options.name(),
            "Discovered from the network: "
                + switches.size()
                + " switches, "
                + links.size()
                + " links seen by LLDP in both directions.",
            false,
            switches,
            links,
            hosts,
            clientSwitches,
            null,
            null);
    return new Built(t, List.of());
  }

  private static void add(List<SwitchNode> switches, Map<Long, SwitchNode> byDpid, long dpid) {
    SwitchNode s = new SwitchNode(switches.size(), "s" + Long.toUnsignedString(dpid), dpid);
    switches.add(s);
    byDpid.put(dpid, s);
  }

  /** A link with the values the network shows: port speeds and LLDP latency. */
  private static Link measured(
      int index, DuplexLink x, Map<Long, SwitchNode> byDpid, NetworkView view, Options options) {
    long a = speed(view, x.dpidA(), x.portA());
    long b = speed(view, x.dpidB(), x.portB());
    double capacity = a > 0 && b > 0 ? Math.min(a, b) / 1000.0 : options.defaultCapacityMbps();
    double delay = Double.isNaN(x.latencyMs()) ? 0 : x.latencyMs();
    return new Link(
        index,
        byDpid.get(x.dpidA()),
        x.portA(),
        byDpid.get(x.dpidB()),
        x.portB(),
        capacity,
        delay,
        0);
  }

  private static long speed(NetworkView view, long dpid, int port) {
    return view.port(dpid, port).map(PortView::speedKbps).orElse(0L);
  }

  /**
   * Attachments on known switches and on ports that carry no link (a host seen on a link port is a
   * stale or flooded sighting), one per address: the last one listed wins.
   */
  private static Map<String, AttachmentView> hostAttachments(
      NetworkView view, List<Link> links, Map<Long, SwitchNode> byDpid) {
    Set<List<Long>> linkPorts = new HashSet<>();
    for (Link l : links) {
      linkPorts.add(List.of(l.a().dpid(), (long) l.portA()));
      linkPorts.add(List.of(l.b().dpid(), (long) l.portB()));
    }
    Map<String, AttachmentView> result = new LinkedHashMap<>();
    for (AttachmentView a : view.attachments()) {
      if (byDpid.containsKey(a.dpid()) && !linkPorts.contains(List.of(a.dpid(), (long) a.port()))) {
        result.put(a.ip(), a);
      }
    }
    return result;
  }

  private static List<Host> hosts(
      Iterable<AttachmentView> attachments, Map<Long, SwitchNode> byDpid, Options options) {
    Map<String, List<AttachmentView>> groups = new TreeMap<>();
    for (AttachmentView a : attachments) {
      groups.computeIfAbsent(groupKey(a.ip(), options.grouping()), k -> new ArrayList<>()).add(a);
    }
    List<Host> hosts = new ArrayList<>();
    for (var e : groups.entrySet()) {
      List<AttachmentView> members = new ArrayList<>(e.getValue());
      members.sort(Comparator.comparingLong(a -> ipValue(a.ip())));
      boolean server = members.stream().anyMatch(a -> options.serverIps().contains(a.ip()));
      List<HostInterface> ifaces =
          members.stream()
              .map(
                  a ->
                      new HostInterface(
                          a.ip(), a.mac(), byDpid.get(a.dpid()), a.port(), Double.NaN, 0, 0))
              .toList();
      hosts.add(
          new Host(
              (server ? "server-" : "client-") + e.getKey(),
              server ? Host.Role.SERVER : Host.Role.CLIENT,
              ifaces));
    }
    return hosts;
  }

  private static String groupKey(String ip, Grouping grouping) {
    long v = ipValue(ip);
    return switch (grouping) {
      case ADDRESS_PLAN -> Long.toString(v & 0xff);
      case PER_ADDRESS -> ip;
    };
  }

  private static long ipValue(String ip) {
    return Integer.toUnsignedLong(Addresses.parseIpv4(ip));
  }
}
