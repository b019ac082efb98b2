package org.mpqoe.core.control;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import org.mpqoe.core.topology.TopologyBuilder;

/**
 * How the controller learns its topology from the network: who the servers are and how the
 * discovered network becomes a {@link org.mpqoe.core.topology.Topology} (both runtimes), and how
 * often the standalone runtime probes for links with LLDP (Floodlight's own link discovery has its
 * own settings). Set at start only.
 *
 * @param servers the servers' IPv4 addresses, sorted, each once; every other host seen is a client
 *     (used without a descriptor, and then required: {@link #topologyOptions})
 * @param hostGrouping how addresses become hosts without a descriptor
 * @param defaultLinkCapacityMbps without a descriptor, the capacity of a link whose ports report no
 *     speed
 * @param lldpIntervalS the standalone runtime's LLDP probe period
 * @param linkTimeoutS the standalone runtime removes a link not seen again for this long; longer
 *     than the probe period ({@link #checkLldp})
 */
public record DiscoveryConfig(
    List<String> servers,
    TopologyBuilder.Grouping hostGrouping,
    double defaultLinkCapacityMbps,
    int lldpIntervalS,
    int linkTimeoutS) {

  /** The name of a topology built without a descriptor. */
  public static final String DISCOVERED = "discovered";

  /**
   * No servers, the address plan, 1000 Mbit/s for links without a speed, probes every 5 s
   * (Floodlight probes every 15 s; a smaller network can afford 5), links gone after three probes.
   */
  public static final DiscoveryConfig DEFAULTS =
      new DiscoveryConfig(
          List.of(), TopologyBuilder.Grouping.ADDRESS_PLAN, 1000, 5, defaultLinkTimeoutS(5));

  public DiscoveryConfig {
    servers = List.copyOf(new TreeSet<>(servers));
    Objects.requireNonNull(hostGrouping, "hostGrouping");
    checkLldp(Duration.ofSeconds(lldpIntervalS), Duration.ofSeconds(linkTimeoutS));
    options(servers, hostGrouping, defaultLinkCapacityMbps); // checks the capacity
  }

  /** The link timeout when only the probe period is given: three periods. */
  public static int defaultLinkTimeoutS(int lldpIntervalS) {
    return 3 * lldpIntervalS;
  }

  /**
   * The rule between LLDP probe period and link timeout, for every runtime that probes: a period
   * above 0 and a timeout longer than it (else links would expire between two probes).
   *
   * @throws IllegalArgumentException naming both settings
   */
  public static void checkLldp(Duration interval, Duration timeout) {
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("'lldpIntervalS' must be above 0, got " + interval);
    }
    if (timeout.compareTo(interval) <= 0) {
      throw new IllegalArgumentException(
          "'linkTimeoutS' ("
              + seconds(timeout)
              + " s) must be longer than 'lldpIntervalS' ("
              + seconds(interval)
              + " s)");
    }
  }

  private static String seconds(Duration d) {
    return SettingsSchema.number(d.toMillis() / 1000.0);
  }

  public Duration lldpInterval() {
    return Duration.ofSeconds(lldpIntervalS);
  }

  public Duration linkTimeout() {
    return Duration.ofSeconds(linkTimeoutS);
  }

  /** This with other servers. */
  public DiscoveryConfig withServers(List<String> ips) {
    return new DiscoveryConfig(
        ips, hostGrouping, defaultLinkCapacityMbps, lldpIntervalS, linkTimeoutS);
  }

  /**
   * How {@link TopologyBuilder} builds the topology: the one place where these options are made.
   *
   * @param descriptor whether a topology descriptor is laid over the discovered network; without
   *     one the servers are required
   * @throws IllegalArgumentException without a descriptor and without servers
   */
  public TopologyBuilder.Options topologyOptions(boolean descriptor) {
    if (!descriptor && servers.isEmpty()) {
      throw new IllegalArgumentException(
          "'servers' is required without a topology descriptor: the servers' IPv4 addresses,"
              + " comma-separated (every other host seen is a client)");
    }
    return options(servers, hostGrouping, defaultLinkCapacityMbps);
  }

  private static TopologyBuilder.Options options(
      List<String> servers, TopologyBuilder.Grouping grouping, double capacityMbps) {
    return new TopologyBuilder.Options(DISCOVERED, capacityMbps, new TreeSet<>(servers), grouping);
  }
}
