package org.mpqoe.core.path;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.StringJoiner;
import org.mpqoe.core.topology.SwitchNode;
import org.mpqoe.core.topology.Topology;

/**
 * A loop-free switch path from a client's first-hop switch to a server's, and the path arithmetic
 * every selector shares: delay, available bandwidth and the links it shares with another path. Two
 * paths are equal when they traverse the same links in the same order.
 */
public final class Path {
  private final int[] switches;
  private final int[] links;
  private final BitSet linkSet;
  private final int hash;

  /**
   * @param switches switch indices from source to destination
   * @param links link indices, {@code links[i]} joins {@code switches[i]} and {@code switches[i+1]}
   */
  public Path(int[] switches, int[] links) {
    if (switches.length != links.length + 1) {
      throw new IllegalArgumentException("a path of n links visits n+1 switches");
    }
    this.switches = switches.clone();
    this.links = links.clone();
    this.linkSet = new BitSet();
    for (int l : links) {
      linkSet.set(l);
    }
    this.hash = 31 * Arrays.hashCode(this.switches) + Arrays.hashCode(this.links);
  }

  /** Switch indices from source to destination. */
  public int[] switches() {
    return switches.clone();
  }

  /** Link indices in path order. */
  public int[] links() {
    return links.clone();
  }

  public int hops() {
    return links.length;
  }

  public int source() {
    return switches[0];
  }

  public int destination() {
    return switches[switches.length - 1];
  }

  public boolean uses(int link) {
    return linkSet.get(link);
  }

  /** End-to-end one-way delay: the sum of the link delays. */
  public double delayMs(LinkState state) {
    double d = 0;
    for (int l : links) {
      d += state.delayMs(l);
    }
    return d;
  }

  /**
   * Available bandwidth abw_p: the least (capacity - load) over the path's links, never below 0. A
   * path without links (client and server on one switch) is not limited by the network.
   */
  public double availableMbps(LinkState state) {
    double abw = Double.POSITIVE_INFINITY;
    for (int l : links) {
      abw = Math.min(abw, state.availableMbps(l));
    }
    return abw;
  }

  /** Links this path shares with {@code other}, in ascending order. */
  public int[] sharedLinks(Path other) {
    BitSet shared = (BitSet) linkSet.clone();
    shared.and(other.linkSet);
    return shared.stream().toArray();
  }

  public boolean isLinkDisjoint(Path other) {
    return !linkSet.intersects(other.linkSet);
  }

  /** True when a link shared with {@code other} has a congestion level above {@code thrCong}. */
  public boolean sharesCongestedLink(Path other, LinkState state, double thrCong) {
    for (int l : sharedLinks(other)) {
      if (state.congestion(l) > thrCong) {
        return true;
      }
    }
    return false;
  }

  /** The switches as names, in path order. */
  public List<String> switchNames(Topology topology) {
    return Arrays.stream(switches).mapToObj(i -> topology.switches().get(i).name()).toList();
  }

  /** The switches as nodes, in path order. */
  public List<SwitchNode> switchNodes(Topology topology) {
    return Arrays.stream(switches).mapToObj(i -> topology.switches().get(i)).toList();
  }

  /** Human form, e.g. {@code Seattle > Chicago > Columbus}. */
  public String describe(Topology topology) {
    StringJoiner j = new StringJoiner(" > ");
    switchNames(topology).forEach(j::add);
    return j.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Path p
        && hash == p.hash
        && Arrays.equals(links, p.links)
        && Arrays.equals(switches, p.switches);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return Arrays.toString(switches);
  }
}
