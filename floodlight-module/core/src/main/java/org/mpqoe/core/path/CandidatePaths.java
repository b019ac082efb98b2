package org.mpqoe.core.path;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jgrapht.Graph;
import org.jgrapht.GraphPath;
import org.jgrapht.alg.shortestpath.AllDirectedPaths;
import org.jgrapht.graph.DirectedMultigraph;
import org.mpqoe.core.topology.Host;
import org.mpqoe.core.topology.HostInterface;
import org.mpqoe.core.topology.Link;
import org.mpqoe.core.topology.SwitchNode;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyException;

/**
 * All simple paths between two switches, up to a hop bound, cached per switch pair. Links can be
 * taken down and brought up again; every change invalidates the cache. Thread-safe.
 *
 * <p>JGraphT's {@link AllDirectedPaths} needs a directed graph, so each undirected link becomes two
 * arcs of a directed multigraph (parallel links stay distinct paths).
 */
public final class CandidatePaths {
  private final Topology topology;
  private final int maxHops;
  private final Map<Long, List<Path>> cache = new ConcurrentHashMap<>();
  private final BitSet down = new BitSet();
  private volatile Graph<Integer, Arc> graph;

  /** A directed use of a link. */
  record Arc(int link, int from, int to) {}

  /**
   * @param maxHops the longest path considered, in links (the bound of the GA paper's "all simple
   *     paths")
   */
  public CandidatePaths(Topology topology, int maxHops) {
    if (maxHops < 1) {
      throw new IllegalArgumentException("maxHops must be at least 1");
    }
    this.topology = topology;
    this.maxHops = maxHops;
    this.graph = buildGraph();
  }

  public Topology topology() {
    return topology;
  }

  public int maxHops() {
    return maxHops;
  }

  /**
   * The candidate paths from {@code src} to {@code dst}, shortest first (ties broken by link
   * indices, so the order is deterministic). Empty when the switches are not connected within the
   * bound; a single link-less path when {@code src == dst}.
   */
  public List<Path> between(SwitchNode src, SwitchNode dst) {
    long key = ((long) src.index() << 32) | dst.index();
    return cache.computeIfAbsent(key, k -> enumerate(src.index(), dst.index()));
  }

  /** Like {@link #between} but fails with a clear message when there is no path at all. */
  public List<Path> requireBetween(SwitchNode src, SwitchNode dst) {
    List<Path> paths = between(src, dst);
    if (paths.isEmpty()) {
      throw new TopologyException(
          "switch '"
              + src.name()
              + "' cannot reach switch '"
              + dst.name()
              + "' in "
              + topology.name()
              + " within "
              + maxHops
              + " hops");
    }
    return paths;
  }

  /**
   * The one hop-shortest path from {@code src} to {@code dst}: the first of {@link #between}, i.e.
   * the fewest links, ties broken by the lower link index at the first link where two paths differ.
   * Empty when the switches are not connected within the bound. Plain IPv4 forwarding, the subflows
   * that no selection routes and the destination tables of {@link Routes} all take this path, so
   * the rule lives here only.
   */
  public Optional<Path> shortest(SwitchNode src, SwitchNode dst) {
    List<Path> paths = between(src, dst);
    return paths.isEmpty() ? Optional.empty() : Optional.of(paths.get(0));
  }

  /** Like {@link #shortest} but fails with {@link #requireBetween}'s message when there is none. */
  public Path requireShortest(SwitchNode src, SwitchNode dst) {
    return requireBetween(src, dst).get(0);
  }

  /**
   * The candidates of a join of {@code client} towards switch {@code to}: the union over the
   * switches the client's interfaces are attached at (in interface order, each switch once) of
   * {@link #between} that switch and {@code to}. For a client on one switch, exactly {@link
   * #requireBetween}. Fails with a clear message when none of its switches reaches {@code to}.
   */
  public List<Path> fromInterfaces(Host client, SwitchNode to) {
    List<SwitchNode> from =
        client.interfaces().stream().map(HostInterface::attachment).distinct().toList();
    if (from.size() == 1) {
      return requireBetween(from.get(0), to);
    }
    List<Path> union = new ArrayList<>();
    for (SwitchNode s : from) {
      union.addAll(between(s, to));
    }
    if (union.isEmpty()) {
      throw new TopologyException(
          "no switch of "
              + client.name()
              + "'s interfaces ("
              + String.join(", ", from.stream().map(SwitchNode::name).toList())
              + ") can reach switch '"
              + to.name()
              + "' in "
              + topology.name()
              + " within "
              + maxHops
              + " hops");
    }
    return List.copyOf(union);
  }

  /** Marks a link down or up; paths over down links are no longer candidates. */
  public synchronized void setLinkUp(int link, boolean up) {
    if (link < 0 || link >= topology.links().size()) {
      throw new IllegalArgumentException("no link " + link + " in " + topology.name());
    }
    if (down.get(link) == !up) {
      return;
    }
    down.set(link, !up);
    graph = buildGraph();
    cache.clear();
  }

  public synchronized boolean isLinkUp(int link) {
    return !down.get(link);
  }

  private synchronized Graph<Integer, Arc> buildGraph() {
    Graph<Integer, Arc> g = new DirectedMultigraph<>(null, null, false);
    topology.switches().forEach(s -> g.addVertex(s.index()));
    for (Link l : topology.links()) {
      if (!down.get(l.index())) {
        int a = l.a().index();
        int b = l.b().index();
        g.addEdge(a, b, new Arc(l.index(), a, b));
        g.addEdge(b, a, new Arc(l.index(), b, a));
      }
    }
    return g;
  }

  private List<Path> enumerate(int src, int dst) {
    if (src == dst) {
      return List.of(new Path(new int[] {src}, new int[0]));
    }
    Graph<Integer, Arc> g = graph;
    List<GraphPath<Integer, Arc>> found =
        new AllDirectedPaths<>(g).getAllPaths(src, dst, true, maxHops);
    List<Path> paths = new ArrayList<>(found.size());
    for (GraphPath<Integer, Arc> gp : found) {
      List<Arc> arcs = gp.getEdgeList();
      int[] links = new int[arcs.size()];
      int[] nodes = new int[arcs.size() + 1];
      nodes[0] = src;
      for (int i = 0; i < arcs.size(); i++) {
        links[i] = arcs.get(i).link();
        nodes[i + 1] = arcs.get(i).to();
      }
      paths.add(new Path(nodes, links));
    }
    paths.sort(Comparator.comparingInt(Path::hops).thenComparing(p -> p.links(), Arrays::compare));
    return List.copyOf(paths);
  }
}
