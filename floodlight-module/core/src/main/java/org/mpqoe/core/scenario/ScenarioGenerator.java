package org.mpqoe.core.scenario;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.mpqoe.core.path.LinkState;
import org.mpqoe.core.topology.Attachment;
import org.mpqoe.core.topology.Descriptor;
import org.mpqoe.core.topology.Host;
import org.mpqoe.core.topology.HostInterface;
import org.mpqoe.core.topology.LinkModel;
import org.mpqoe.core.topology.SwitchNode;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyException;
import org.mpqoe.core.topology.TopologyLoader;

/**
 * Makes {@link Scenario}s as the GA paper did: link bandwidth and delay drawn per link (see {@link
 * LinkDraws}) with the moments the paper gives for the topology and number of clients, clients
 * joining every 4 s. Everything comes from one seed, split into two independent streams: one for
 * the link draws, one for client placement, so that a seed places its clients on the same switches
 * whatever the link source.
 */
public final class ScenarioGenerator {
  /** The GA paper's join interval. */
  public static final double JOIN_INTERVAL_S = 4.0;

  /** Where link values come from. */
  public enum LinkSource {
    /** The paper's link model when the descriptor has one, the descriptor's values otherwise. */
    AUTO,
    /** Always the paper's link model (fails when the descriptor has none). */
    PAPER,
    /** Always the descriptor's nominal values. */
    DESCRIPTOR
  }

  /**
   * Stream ids xor-ed into the seed: link draws and client placement never share draws. The link
   * stream is the seed itself, so link draws are what they were before placement got its own.
   */
  private static final long LINK_STREAM = 0L;

  private static final long PLACEMENT_STREAM = 0x9E3779B97F4A7C15L;

  private ScenarioGenerator() {}

  /**
   * A generator for one stream; {@code create(long)} spreads the seed over the state (SplitMix64).
   */
  private static UniformRandomProvider stream(long seed, long stream) {
    return RandomSource.XO_RO_SHI_RO_128_PP.create(seed ^ stream);
  }

  /**
   * What a scenario's link values are made from.
   *
   * @param source where the switch-to-switch links' bandwidth and delay come from
   * @param bandwidthMeanMbps replaces the link model's bandwidth mean for the number of clients
   *     (null: the model's row); needs drawn links. The GA paper's scheduler and buffer experiment
   *     (section IV.B.2) sets bandwidths "so that if two paths are assigned to a client, it enables
   *     the client to download the video at approximately the highest quality" instead of using
   *     Tables I/II.
   * @param bandwidthStdMbps likewise for the standard deviation
   * @param accessCapacityMbps capacity of every generated client interface's access link (null:
   *     unshaped)
   */
  public record LinkSpec(
      LinkSource source,
      Double bandwidthMeanMbps,
      Double bandwidthStdMbps,
      Double accessCapacityMbps) {
    public LinkSpec {
      if (source == null) {
        throw new IllegalArgumentException("a link source is required");
      }
      if (bandwidthMeanMbps != null && !positive(bandwidthMeanMbps)) {
        throw new IllegalArgumentException(
            "the bandwidth mean must be a positive number of Mbit/s, got " + bandwidthMeanMbps);
      }
      if (bandwidthStdMbps != null && !(bandwidthStdMbps == 0 || positive(bandwidthStdMbps))) {
        throw new IllegalArgumentException(
            "the bandwidth standard deviation must be a number of Mbit/s >= 0, got "
                + bandwidthStdMbps);
      }
      if (accessCapacityMbps != null && !positive(accessCapacityMbps)) {
        throw new IllegalArgumentException(
            "the access capacity must be a positive number of Mbit/s, got " + accessCapacityMbps);
      }
    }

    /** Links from {@code source}, with the model's moments, client interfaces unshaped. */
    public static LinkSpec of(LinkSource source) {
      return new LinkSpec(source, null, null, null);
    }

    boolean overridesBandwidth() {
      return bandwidthMeanMbps != null || bandwidthStdMbps != null;
    }
  }

  /**
   * Where a generated client's interfaces and the server's interfaces attach.
   *
   * @param interfaceSwitches null: all of a client's interfaces on one switch drawn from the
   *     topology's client switches; else one group of switch names per interface, interface k on a
   *     switch drawn from group k (e.g. {@code [[s1], [s2], [s3]]}: every client's interfaces on
   *     s1, s2 and s3, as in the GA paper's own framework)
   * @param serverSwitches null: the server's interfaces where the descriptor puts them; else one
   *     switch name per interface of the topology's one server, interface k on switch k (its
   *     addresses stay: one per interface)
   * @param attach the name of the {@link Attachment} this placement comes from, or null
   */
  public record Placement(
      List<List<String>> interfaceSwitches, List<String> serverSwitches, String attach) {
    /** Every client's interfaces on one drawn client switch, the server where it is. */
    public static final Placement ONE_SWITCH = new Placement(null, null, null);

    public Placement {
      if (interfaceSwitches != null) {
        interfaceSwitches = interfaceSwitches.stream().map(List::copyOf).toList();
        for (int k = 0; k < interfaceSwitches.size(); k++) {
          if (interfaceSwitches.get(k).isEmpty()) {
            throw new IllegalArgumentException(
                "interface switches: group " + (k + 1) + " names no switch");
          }
        }
      }
      if (serverSwitches != null) {
        serverSwitches = List.copyOf(serverSwitches);
      }
    }

    /** Client interface groups only. */
    public Placement(List<List<String>> interfaceSwitches) {
      this(interfaceSwitches, null, null);
    }

    /**
     * Parses {@code "a,b;c;d"}: groups separated by ';', switch names in a group by ','; null or
     * blank gives {@link #ONE_SWITCH}.
     */
    public static Placement parse(String groups) {
      if (groups == null || groups.isBlank()) {
        return ONE_SWITCH;
      }
      List<List<String>> out = new ArrayList<>();
      for (String g : groups.split(";", -1)) {
        List<String> names = new ArrayList<>();
        for (String s : g.split(",", -1)) {
          if (!s.isBlank()) {
            names.add(s.strip());
          }
        }
        out.add(names);
      }
      return new Placement(out);
    }

    /**
     * Parses client groups as {@link #parse} and server switches {@code "a;b;c"} (one name per
     * server interface; null or blank: where the descriptor puts them).
     */
    public static Placement parse(String groups, String serverSwitches) {
      Placement p = parse(groups);
      if (serverSwitches == null || serverSwitches.isBlank()) {
        return p;
      }
      List<String> names = new ArrayList<>();
      for (String s : serverSwitches.split(";", -1)) {
        if (s.isBlank() || s.contains(",")) {
          throw new IllegalArgumentException(
              "server switches: want one switch name per server interface, separated by ';', got '"
                  + serverSwitches
                  + "'");
        }
        names.add(s.strip());
      }
      return new Placement(p.interfaceSwitches(), names, null);
    }

    /** Interface k of every client on {@code a.clients()[k]}, of the server on its server[k]. */
    public static Placement of(Attachment a) {
      return new Placement(a.clients().stream().map(List::of).toList(), a.server(), a.name());
    }
  }

  /**
   * {@code topology} with its one server's interface k moved to {@code switches[k]} (same
   * addresses); {@code topology} itself for null.
   */
  static Topology serverOn(Topology topology, List<String> switches) {
    if (switches == null) {
      return topology;
    }
    List<Host> servers = topology.servers();
    if (servers.size() != 1) {
      throw new IllegalArgumentException(
          "server switches: "
              + topology.name()
              + " has "
              + servers.size()
              + " servers; they apply to a topology with one");
    }
    int n = servers.get(0).interfaces().size();
    if (switches.size() != n) {
      throw new IllegalArgumentException(
          "server switches: "
              + switches.size()
              + " switch(es) for "
              + n
              + " server interfaces; give one per interface");
    }
    for (String name : switches) {
      if (topology.switchNamed(name).isEmpty()) {
        throw new TopologyException(
            "server switches: " + topology.name() + " has no switch '" + name + "'");
      }
    }
    Descriptor d = topology.descriptor();
    List<Descriptor.HostJson> hosts = new ArrayList<>();
    for (Descriptor.HostJson h : d.hosts()) {
      if (!h.name().equals(servers.get(0).name())) {
        hosts.add(h);
        continue;
      }
      List<Descriptor.InterfaceJson> ifaces = new ArrayList<>();
      for (int k = 0; k < n; k++) {
        Descriptor.InterfaceJson f = h.interfaces().get(k);
        ifaces.add(
            new Descriptor.InterfaceJson(
                f.ip(), f.mac(), switches.get(k), f.capacityMbps(), f.delayMs(), f.lossPct()));
      }
      hosts.add(new Descriptor.HostJson(h.name(), h.role(), ifaces));
    }
    Descriptor moved =
        new Descriptor(
            d.schema(),
            d.name(),
            d.description(),
            d.approximation(),
            d.switches(),
            d.links(),
            hosts,
            d.clientSwitches(),
            d.generator(),
            d.scenario(),
            d.draw());
    return TopologyLoader.parse(TopologyLoader.write(moved), topology.name());
  }

  private static boolean positive(double x) {
    return x > 0 && Double.isFinite(x);
  }

  /**
   * @param clients how many clients join
   * @param interfaces interfaces per generated client (N of eq. 5); ignored when the descriptor
   *     lists its clients
   */
  public static Scenario generate(
      Topology topology, int clients, int interfaces, long seed, LinkSource source) {
    return generate(topology, clients, interfaces, seed, LinkSpec.of(source));
  }

  /**
   * As {@link #generate(Topology, int, int, long, LinkSource)} with link values from {@code spec}.
   */
  public static Scenario generate(
      Topology topology, int clients, int interfaces, long seed, LinkSpec spec) {
    return generate(topology, clients, interfaces, seed, spec, Placement.ONE_SWITCH);
  }

  /** As {@link #generate(Topology, int, int, long, LinkSpec)}, placing clients by {@code where}. */
  public static Scenario generate(
      Topology topology, int clients, int interfaces, long seed, LinkSpec spec, Placement where) {
    topology = serverOn(topology, where.serverSwitches());
    if (clients < 1) {
      throw new IllegalArgumentException("the number of clients must be at least 1");
    }
    if (interfaces < 1) {
      throw new IllegalArgumentException(
          "N (interfaces per client) must be at least 1, got " + interfaces);
    }
    List<Host> servers = topology.servers();
    if (servers.isEmpty()) {
      throw new TopologyException(topology.name() + " has no server host");
    }
    UniformRandomProvider rng = stream(seed, LINK_STREAM);
    LinkModel model = topology.linkModel().orElse(null);
    boolean paper =
        switch (spec.source()) {
          case AUTO -> model != null;
          case PAPER -> {
            if (model == null) {
              throw new TopologyException(topology.name() + " has no link model of the paper");
            }
            yield true;
          }
          case DESCRIPTOR -> false;
        };
    if (spec.overridesBandwidth() && !paper) {
      throw new IllegalArgumentException(
          "a bandwidth mean or std needs drawn links (PAPER, or AUTO on a topology with a link"
              + " model); "
              + topology.name()
              + "'s links here are the descriptor's");
    }
    List<List<SwitchNode>> groups = groups(topology, interfaces, where);
    if (spec.accessCapacityMbps() != null && !topology.clients().isEmpty()) {
      throw new IllegalArgumentException(
          topology.name()
              + " lists its clients; an access capacity applies to generated clients only");
    }
    LinkState links;
    LinkModel.Moments target = null;
    int n = topology.links().size();
    double[] cap = new double[n];
    double[] delay = new double[n];
    if (paper) {
      LinkModel.Moments row = model.bandwidthFor(clients);
      target =
          new LinkModel.Moments(
              spec.bandwidthMeanMbps() != null ? spec.bandwidthMeanMbps() : row.mean(),
              spec.bandwidthStdMbps() != null ? spec.bandwidthStdMbps() : row.std());
      for (int l = 0; l < n; l++) {
        cap[l] = LinkDraws.bandwidth(rng, target.mean(), target.std());
        delay[l] = LinkDraws.delay(rng, model.delayMinMs(), model.delayMaxMs());
      }
      links = new LinkState(cap, new double[n], delay);
    } else {
      links = LinkState.nominal(topology);
      for (int l = 0; l < n; l++) {
        cap[l] = links.capacityMbps(l);
      }
    }
    double access = spec.accessCapacityMbps() == null ? Double.NaN : spec.accessCapacityMbps();
    List<Host> hosts =
        clientHosts(topology, clients, interfaces, access, groups, stream(seed, PLACEMENT_STREAM));
    List<Scenario.Client> joined = new ArrayList<>();
    for (int i = 0; i < hosts.size(); i++) {
      joined.add(
          new Scenario.Client(hosts.get(i), servers.get(i % servers.size()), i * JOIN_INTERVAL_S));
    }
    return new Scenario(topology, seed, links, joined, JOIN_INTERVAL_S, target, moments(cap));
  }

  /** The switches of {@code where}'s groups, checked against the topology; null for one switch. */
  private static List<List<SwitchNode>> groups(Topology topology, int interfaces, Placement where) {
    if (where.interfaceSwitches() == null) {
      return null;
    }
    if (!topology.clients().isEmpty()) {
      throw new IllegalArgumentException(
          topology.name()
              + " lists its clients; interface switches apply to generated clients only");
    }
    if (where.interfaceSwitches().size() != interfaces) {
      throw new IllegalArgumentException(
          "interface switches: "
              + where.interfaceSwitches().size()
              + " group(s) for "
              + interfaces
              + " interfaces per client; give one group per interface");
    }
    List<List<SwitchNode>> out = new ArrayList<>();
    for (List<String> g : where.interfaceSwitches()) {
      List<SwitchNode> nodes = new ArrayList<>();
      for (String name : g) {
        nodes.add(
            topology.switches().stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow(
                    () ->
                        new TopologyException(
                            "interface switches: "
                                + topology.name()
                                + " has no switch '"
                                + name
                                + "'")));
      }
      out.add(nodes);
    }
    return out;
  }

  private static List<Host> clientHosts(
      Topology topology,
      int clients,
      int interfaces,
      double accessCapacityMbps,
      List<List<SwitchNode>> groups,
      UniformRandomProvider rng) {
    List<Host> listed = topology.clients();
    if (!listed.isEmpty()) {
      if (clients > listed.size()) {
        throw new TopologyException(
            topology.name() + " lists " + listed.size() + " clients; " + clients + " requested");
      }
      return listed.subList(0, clients);
    }
    List<SwitchNode> pool = topology.clientSwitches();
    if (pool.isEmpty() && groups == null) {
      throw new TopologyException(topology.name() + " has no switch where clients may attach");
    }
    if (clients > 244) {
      throw new IllegalArgumentException("at most 244 generated clients (one /24 per interface)");
    }
    List<Host> hosts = new ArrayList<>();
    for (int k = 1; k <= clients; k++) {
      SwitchNode one = groups == null ? pool.get(rng.nextInt(pool.size())) : null;
      List<HostInterface> ifaces = new ArrayList<>();
      for (int i = 1; i <= interfaces; i++) {
        List<SwitchNode> g = groups == null ? null : groups.get(i - 1);
        SwitchNode at = g == null ? one : g.get(rng.nextInt(g.size()));
        ifaces.add(
            new HostInterface(
                "10.0." + i + "." + (k + 10),
                String.format("02:00:00:00:%02x:%02x", i, k + 10),
                at,
                0,
                accessCapacityMbps,
                0,
                0));
      }
      hosts.add(new Host("c" + k, Host.Role.CLIENT, ifaces));
    }
    return hosts;
  }

  /**
   * The topology's descriptor with the scenario's generated clients written in as hosts, so that
   * Mininet and the controller read one file with the same clients (same placement and addresses as
   * {@link #generate} draws for that seed); links keep the descriptor's values.
   */
  public static Descriptor withClients(Topology topology, int clients, int interfaces, long seed) {
    return withClients(topology, clients, interfaces, seed, LinkSpec.of(LinkSource.DESCRIPTOR));
  }

  /**
   * As {@link #withClients(Topology, int, int, long)}, and with drawn links each link's {@code
   * capacityMbps} and {@code delayMs} are the scenario's draws: exactly what {@link
   * #generate(Topology, int, int, long, LinkSpec)} draws for that seed and number of clients, so
   * Mininet shapes the links the selectors saw. The descriptor's {@code draw} records how it was
   * made.
   */
  public static Descriptor withClients(
      Topology topology, int clients, int interfaces, long seed, LinkSpec spec) {
    return withClients(topology, clients, interfaces, seed, spec, Placement.ONE_SWITCH);
  }

  /**
   * As {@link #withClients(Topology, int, int, long, LinkSpec)}, placing clients by {@code where};
   * the descriptor's {@code draw} records its interface switches.
   */
  public static Descriptor withClients(
      Topology topology, int clients, int interfaces, long seed, LinkSpec spec, Placement where) {
    Scenario s = generate(topology, clients, interfaces, seed, spec, where);
    topology = s.topology();
    Descriptor d = topology.descriptor();
    boolean drawn = s.target() != null;
    List<Descriptor.LinkJson> links = d.links() == null ? List.of() : d.links();
    if (drawn) {
      List<Descriptor.LinkJson> redrawn = new ArrayList<>();
      for (int l = 0; l < links.size(); l++) {
        Descriptor.LinkJson j = links.get(l);
        redrawn.add(
            new Descriptor.LinkJson(
                j.a(), j.b(), s.links().capacityMbps(l), s.links().delayMs(l), j.lossPct()));
      }
      links = redrawn;
    }
    Set<String> left = new HashSet<>();
    for (Host h : topology.clients()) {
      left.add(h.name());
    }
    for (Scenario.Client c : s.clients()) {
      left.remove(c.host().name());
    }
    // A topology that lists its clients keeps only those that join: Mininet and the controller
    // must not see a listed client that never streams.
    List<Descriptor.HostJson> hosts = new ArrayList<>();
    for (Descriptor.HostJson h : d.hosts() == null ? List.<Descriptor.HostJson>of() : d.hosts()) {
      if (!left.contains(h.name())) {
        hosts.add(h);
      }
    }
    for (Scenario.Client c : s.clients()) {
      if (topology.clients().contains(c.host())) {
        continue;
      }
      List<Descriptor.InterfaceJson> ifaces = new ArrayList<>();
      for (HostInterface f : c.host().interfaces()) {
        Double capacity = Double.isNaN(f.capacityMbps()) ? null : f.capacityMbps();
        ifaces.add(
            new Descriptor.InterfaceJson(
                f.ip(), f.mac(), f.attachment().name(), capacity, null, null));
      }
      hosts.add(new Descriptor.HostJson(c.host().name(), "client", ifaces));
    }
    Descriptor.DrawJson draw;
    if (drawn) {
      LinkModel model = topology.linkModel().orElseThrow();
      draw =
          new Descriptor.DrawJson(
              seed,
              clients,
              interfaces,
              "paper",
              new Descriptor.MomentsJson(s.target().mean(), s.target().std()),
              new Descriptor.RangeJson(model.delayMinMs(), model.delayMaxMs()),
              new Descriptor.MomentsJson(s.realised().mean(), s.realised().std()),
              spec.accessCapacityMbps(),
              where.interfaceSwitches(),
              where.serverSwitches(),
              where.attach());
    } else {
      draw =
          new Descriptor.DrawJson(
              seed,
              clients,
              interfaces,
              "descriptor",
              null,
              null,
              null,
              spec.accessCapacityMbps(),
              where.interfaceSwitches(),
              where.serverSwitches(),
              where.attach());
    }
    return new Descriptor(
        d.schema(),
        d.name() + "-" + clients + "c",
        d.description()
            + " With "
            + clients
            + (topology.clients().isEmpty()
                ? " generated clients (seed " + seed + ")"
                : " of its listed clients")
            + (drawn ? "; link bandwidths and delays drawn from the GA paper's model" : "")
            + " (see \"draw\").",
        d.approximation(),
        d.switches(),
        links,
        hosts,
        d.clientSwitches(),
        d.generator(),
        d.scenario(),
        draw);
  }

  /** Mean and sample standard deviation. */
  public static LinkModel.Moments moments(double[] xs) {
    if (xs.length == 0) {
      return new LinkModel.Moments(0, 0);
    }
    double mean = 0;
    for (double x : xs) {
      mean += x;
    }
    mean /= xs.length;
    double ss = 0;
    for (double x : xs) {
      ss += (x - mean) * (x - mean);
    }
    double std = xs.length > 1 ? Math.sqrt(ss / (xs.length - 1)) : 0;
    return new LinkModel.Moments(mean, std);
  }
}
