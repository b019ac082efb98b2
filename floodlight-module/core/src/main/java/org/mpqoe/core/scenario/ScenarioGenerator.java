package org.mpqoe.core.scenario;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.mpqoe.core.path.LinkState;
import org.mpqoe.core.topology.Descriptor;
import org.mpqoe.core.topology.Host;
import org.mpqoe.core.topology.HostInterface;
import org.mpqoe.core.topology.LinkModel;
import org.mpqoe.core.topology.SwitchNode;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyException;

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
   * @param clients how many clients join
   * @param interfaces interfaces per generated client (N of eq. 5); ignored when the descriptor
   *     lists its clients
   */
  public static Scenario generate(
      Topology topology, int clients, int interfaces, long seed, LinkSource source) {
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
        switch (source) {
          case AUTO -> model != null;
          case PAPER -> {
            if (model == null) {
              throw new TopologyException(topology.name() + " has no link model of the paper");
            }
            yield true;
          }
          case DESCRIPTOR -> false;
        };
    LinkState links;
    LinkModel.Moments target = null;
    int n = topology.links().size();
    double[] cap = new double[n];
    double[] delay = new double[n];
    if (paper) {
      target = model.bandwidthFor(clients);
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
    List<Host> hosts = clientHosts(topology, clients, interfaces, stream(seed, PLACEMENT_STREAM));
    List<Scenario.Client> joined = new ArrayList<>();
    for (int i = 0; i < hosts.size(); i++) {
      joined.add(
          new Scenario.Client(hosts.get(i), servers.get(i % servers.size()), i * JOIN_INTERVAL_S));
    }
    return new Scenario(topology, seed, links, joined, JOIN_INTERVAL_S, target, moments(cap));
  }

  private static List<Host> clientHosts(
      Topology topology, int clients, int interfaces, UniformRandomProvider rng) {
    List<Host> listed = topology.clients();
    if (!listed.isEmpty()) {
      if (clients > listed.size()) {
        throw new TopologyException(
            topology.name() + " lists " + listed.size() + " clients; " + clients + " requested");
      }
      return listed.subList(0, clients);
    }
    List<SwitchNode> pool = topology.clientSwitches();
    if (pool.isEmpty()) {
      throw new TopologyException(topology.name() + " has no switch where clients may attach");
    }
    if (clients > 244) {
      throw new IllegalArgumentException("at most 244 generated clients (one /24 per interface)");
    }
    List<Host> hosts = new ArrayList<>();
    for (int k = 1; k <= clients; k++) {
      SwitchNode at = pool.get(rng.nextInt(pool.size()));
      List<HostInterface> ifaces = new ArrayList<>();
      for (int i = 1; i <= interfaces; i++) {
        ifaces.add(
            new HostInterface(
                "10.0." + i + "." + (k + 10),
                String.format("02:00:00:00:%02x:%02x", i, k + 10),
                at,
                0,
                Double.NaN,
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
   * {@link #generate} draws for that seed).
   */
  public static Descriptor withClients(Topology topology, int clients, int interfaces, long seed) {
    // Placement has a stream of its own, so the link source does not matter; AUTO as elsewhere.
    Scenario s = generate(topology, clients, interfaces, seed, LinkSource.AUTO);
    Descriptor d = topology.descriptor();
    List<Descriptor.HostJson> hosts = new ArrayList<>(d.hosts() == null ? List.of() : d.hosts());
    for (Scenario.Client c : s.clients()) {
      if (topology.clients().contains(c.host())) {
        continue;
      }
      List<Descriptor.InterfaceJson> ifaces = new ArrayList<>();
      for (HostInterface f : c.host().interfaces()) {
        ifaces.add(
            new Descriptor.InterfaceJson(f.ip(), f.mac(), f.attachment().name(), null, null, null));
      }
      hosts.add(new Descriptor.HostJson(c.host().name(), "client", ifaces));
    }
    return new Descriptor(
        d.schema(),
        d.name() + "-" + clients + "c",
        d.description() + " With " + clients + " generated clients (seed " + seed + ").",
        d.approximation(),
        d.switches(),
        d.links(),
        hosts,
        d.clientSwitches(),
        d.generator(),
        d.scenario());
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
