package org.mpqoe.core.path;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.mpqoe.core.topology.Link;
import org.mpqoe.core.topology.SwitchNode;
import org.mpqoe.core.topology.Topology;

/**
 * Destination-based forwarding tables: for every switch and every other switch it reaches within
 * the hop bound, the first link of {@link CandidatePaths#shortest} between them and its port there.
 * These are the rules a network without a controller needs to forward by destination switch along
 * the paths the controller's plain forwarding takes (the scheduler experiments install them as
 * static OpenFlow rules).
 *
 * <p>Hop by hop these tables follow exactly the path {@link CandidatePaths#shortest} gives from the
 * first switch: every link of a hop-shortest path brings the packet one hop closer, so the rest of
 * a shortest path is a shortest path from the next switch, and the first in link-index order of
 * those is the rest of the first from the previous switch. The tie rule (the lower link index) is
 * the lower port number, since a switch's link ports are numbered in descriptor link order.
 */
public final class Routes {
  /**
   * The first hop from {@code from} towards {@code to}.
   *
   * @param link the link taken (descriptor index)
   * @param port its port on {@code from}
   * @param next the switch at its other end
   * @param hops the length of the whole path to {@code to}, in links
   */
  public record Hop(
      SwitchNode from, SwitchNode to, Link link, int port, SwitchNode next, int hops) {}

  private final Topology topology;
  private final int maxHops;
  private final List<Hop> hops;
  private final Hop[][] table;

  private Routes(CandidatePaths paths) {
    topology = paths.topology();
    maxHops = paths.maxHops();
    int n = topology.switches().size();
    table = new Hop[n][n];
    List<Hop> all = new ArrayList<>();
    for (SwitchNode from : topology.switches()) {
      for (SwitchNode to : topology.switches()) {
        if (from.index() == to.index()) {
          continue;
        }
        Optional<Path> p = paths.shortest(from, to);
        if (p.isEmpty()) {
          continue;
        }
        Link link = topology.links().get(p.get().links()[0]);
        Hop hop = new Hop(from, to, link, link.portAt(from), link.other(from), p.get().hops());
        table[from.index()][to.index()] = hop;
        all.add(hop);
      }
    }
    hops = List.copyOf(all);
  }

  /** The tables of {@code paths}' topology, within its hop bound and over its links that are up. */
  public static Routes of(CandidatePaths paths) {
    return new Routes(paths);
  }

  public Topology topology() {
    return topology;
  }

  public int maxHops() {
    return maxHops;
  }

  /** Every hop, by source switch, then destination switch, both in descriptor order. */
  public List<Hop> hops() {
    return hops;
  }

  /** The first hop from {@code from} towards {@code to}; empty when it is not reached (or same). */
  public Optional<Hop> hop(SwitchNode from, SwitchNode to) {
    return Optional.ofNullable(table[from.index()][to.index()]);
  }
}
