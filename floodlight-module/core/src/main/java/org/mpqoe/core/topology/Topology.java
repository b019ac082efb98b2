package org.mpqoe.core.topology;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A validated topology: switches, links, hosts and, when the descriptor has one, the GA paper's
 * link model. Immutable; build it with {@link TopologyLoader}.
 */
public final class Topology {
  private final String name;
  private final String description;
  private final boolean approximation;
  private final List<SwitchNode> switches;
  private final List<Link> links;
  private final List<Host> hosts;
  private final List<SwitchNode> clientSwitches;
  private final LinkModel linkModel;
  private final Descriptor descriptor;
  private final Map<String, SwitchNode> byName = new HashMap<>();
  private final Map<Long, SwitchNode> byDpid = new HashMap<>();
  private final Map<LinkKey, Integer> byKey = new HashMap<>();

  /**
   * What identifies a switch-to-switch link across rebuilds of a topology from the network: its two
   * ends as (dpid, port), the end with the smaller (dpid, port) first. Indices are positions and
   * change when links come and go; keys do not.
   */
  public record LinkKey(long dpidA, int portA, long dpidB, int portB) {
    public static LinkKey of(long dpidX, int portX, long dpidY, int portY) {
      boolean xFirst = dpidX < dpidY || (dpidX == dpidY && portX <= portY);
      return xFirst
          ? new LinkKey(dpidX, portX, dpidY, portY)
          : new LinkKey(dpidY, portY, dpidX, portX);
    }

    public static LinkKey of(Link l) {
      return of(l.a().dpid(), l.portA(), l.b().dpid(), l.portB());
    }

    @Override
    public String toString() {
      return String.format("%016x:%d-%016x:%d", dpidA, portA, dpidB, portB);
    }
  }

  Topology(
      String name,
      String description,
      boolean approximation,
      List<SwitchNode> switches,
      List<Link> links,
      List<Host> hosts,
      List<SwitchNode> clientSwitches,
      LinkModel linkModel,
      Descriptor descriptor) {
    this.name = name;
    this.description = description;
    this.approximation = approximation;
    this.switches = List.copyOf(switches);
    this.links = List.copyOf(links);
    this.hosts = List.copyOf(hosts);
    this.clientSwitches = List.copyOf(clientSwitches);
    this.linkModel = linkModel;
    this.descriptor = descriptor;
    for (SwitchNode s : switches) {
      byName.put(s.name(), s);
      byDpid.put(s.dpid(), s);
    }
    for (Link l : this.links) {
      byKey.put(LinkKey.of(l), l.index());
    }
  }

  /**
   * A topology without switches, links or hosts: what a controller starts with before it has
   * discovered anything.
   */
  public static Topology empty(String name) {
    return new Topology(
        name,
        "Nothing discovered yet.",
        false,
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        null,
        null);
  }

  public String name() {
    return name;
  }

  public String description() {
    return description;
  }

  /** True when the wiring is this project's design rather than the paper's. */
  public boolean approximation() {
    return approximation;
  }

  public List<SwitchNode> switches() {
    return switches;
  }

  public List<Link> links() {
    return links;
  }

  public List<Host> hosts() {
    return hosts;
  }

  public List<Host> servers() {
    return hosts.stream().filter(h -> h.role() == Host.Role.SERVER).toList();
  }

  public List<Host> clients() {
    return hosts.stream().filter(h -> h.role() == Host.Role.CLIENT).toList();
  }

  /** Where generated clients may attach. */
  public List<SwitchNode> clientSwitches() {
    return clientSwitches;
  }

  public Optional<LinkModel> linkModel() {
    return Optional.ofNullable(linkModel);
  }

  /** The descriptor this topology was read from (null for {@link #empty}). */
  public Descriptor descriptor() {
    return descriptor;
  }

  /** The key of link {@code index} (see {@link LinkKey}). */
  public LinkKey linkKey(int index) {
    return LinkKey.of(links.get(index));
  }

  /** The index of the link with this key, or -1 when this topology has no such link. */
  public int indexOf(LinkKey key) {
    return byKey.getOrDefault(key, -1);
  }

  public Optional<SwitchNode> switchNamed(String switchName) {
    return Optional.ofNullable(byName.get(switchName));
  }

  public Optional<SwitchNode> switchWithDpid(long dpid) {
    return Optional.ofNullable(byDpid.get(dpid));
  }

  /** The switch called {@code switchName}, or a {@link TopologyException} naming it. */
  public SwitchNode requireSwitch(String switchName) {
    return switchNamed(switchName)
        .orElseThrow(() -> new TopologyException("unknown switch '" + switchName + "' in " + name));
  }

  @Override
  public String toString() {
    return name + " (" + switches.size() + " switches, " + links.size() + " links)";
  }
}
