package org.mpqoe.core.topology;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * The GA paper's authors' wiring as a rule on switch graphs, so that it carries over to any
 * topology. Their framework (Topology_File/topo.py) puts every client's three interfaces on s1, s2
 * and s3, a chain, and the server's on s5, s7 and s9, each two hops from one client switch over a
 * switch of its own (s3-s4-s5, s2-s11-s7, s1-s10-s9). The rule, over all choices:
 *
 * <ol>
 *   <li>the clients on a chain c1-c2-c3 (c2 linked to c1 and to c3);
 *   <li>the server on s1, s2, s3 with three switch-disjoint two-hop routes c3-m1-s1, c2-m2-s2,
 *       c1-m3-s3 (the nine switches distinct): every client interface has a route of its own to a
 *       server interface of its own, and server interface k faces client interface 4-k;
 *   <li>the largest sum of the nine hop distances between a client switch and a server switch (the
 *       server as far from the clients as such routes allow);
 *   <li>ties: the smallest tuple of descriptor positions (c1, c2, c3, s1, s2, s3).
 * </ol>
 *
 * On CompuServe it gives exactly the framework's wiring under one of the graph's two isomorphisms
 * with the framework's network.
 */
public final class FrameworkWiring {
  /** The name of the attachment the rule makes. */
  public static final String NAME = "framework";

  private static final String NETWORK = "topologies/framework/compuserve.json";

  private FrameworkWiring() {}

  /** The framework's own switch network (11 switches s1..s11, 14 links, its link values). */
  public static Topology network() {
    try (InputStream in = FrameworkWiring.class.getClassLoader().getResourceAsStream(NETWORK)) {
      if (in == null) {
        throw new IllegalStateException(NETWORK + " is not embedded in this build");
      }
      return TopologyLoader.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), NETWORK);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The rule's attachment on {@code t}: three client switches, three server switches.
   *
   * @throws TopologyException when {@code t} has no chain with three such routes
   */
  public static Attachment rule(Topology t) {
    int n = t.switches().size();
    int[][] adj = neighbours(t);
    int[][] dist = distances(adj);
    int[] best = null;
    int bestSum = -1;
    int[] c = new int[3];
    int[] m = new int[3];
    int[] s = new int[3];
    for (c[1] = 0; c[1] < n; c[1]++) {
      for (int c0 : adj[c[1]]) {
        for (int c2 : adj[c[1]]) {
          if (c2 == c0) {
            continue;
          }
          c[0] = c0;
          c[2] = c2;
          // route k (server interface k) leaves client switch c[2 - k]
          for (int m0 : adj[c[2]]) {
            for (int m1 : adj[c[1]]) {
              for (int m2 : adj[c[0]]) {
                m[0] = m0;
                m[1] = m1;
                m[2] = m2;
                if (!distinct(c, m, null)) {
                  continue;
                }
                for (int s0 : adj[m0]) {
                  for (int s1 : adj[m1]) {
                    for (int s2 : adj[m2]) {
                      s[0] = s0;
                      s[1] = s1;
                      s[2] = s2;
                      if (!distinct(c, m, s)) {
                        continue;
                      }
                      int sum = 0;
                      for (int x : c) {
                        for (int y : s) {
                          sum += dist[x][y];
                        }
                      }
                      int[] key = {c[0], c[1], c[2], s[0], s[1], s[2]};
                      if (sum > bestSum || (sum == bestSum && Arrays.compare(key, best) < 0)) {
                        bestSum = sum;
                        best = key;
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    if (best == null) {
      throw new TopologyException(
          t.name()
              + " has no chain of three switches with three switch-disjoint two-hop routes to"
              + " three other switches; the framework's wiring does not carry over");
    }
    List<String> names = Arrays.stream(best).mapToObj(i -> t.switches().get(i).name()).toList();
    return new Attachment(
        NAME,
        "the framework's wiring by rule (hop-distance sum " + bestSum + ")",
        names.subList(0, 3),
        names.subList(3, 6));
  }

  /** Whether the switches of the given triples (the last may be null) are all different. */
  private static boolean distinct(int[] a, int[] b, int[] c) {
    TreeSet<Integer> seen = new TreeSet<>();
    int size = 0;
    for (int[] xs : c == null ? new int[][] {a, b} : new int[][] {a, b, c}) {
      for (int x : xs) {
        seen.add(x);
        size++;
      }
    }
    return seen.size() == size;
  }

  /** Each switch's neighbours by index, ascending, each once. */
  private static int[][] neighbours(Topology t) {
    List<TreeSet<Integer>> sets = new java.util.ArrayList<>();
    for (int i = 0; i < t.switches().size(); i++) {
      sets.add(new TreeSet<>());
    }
    for (Link l : t.links()) {
      if (l.a().index() != l.b().index()) {
        sets.get(l.a().index()).add(l.b().index());
        sets.get(l.b().index()).add(l.a().index());
      }
    }
    return sets.stream()
        .map(x -> x.stream().mapToInt(Integer::intValue).toArray())
        .toArray(int[][]::new);
  }

  /** Hop distances by breadth-first search; unreachable pairs get n. */
  private static int[][] distances(int[][] adj) {
    int n = adj.length;
    int[][] d = new int[n][];
    for (int from = 0; from < n; from++) {
      int[] row = new int[n];
      Arrays.fill(row, -1);
      row[from] = 0;
      ArrayDeque<Integer> queue = new ArrayDeque<>(List.of(from));
      while (!queue.isEmpty()) {
        int u = queue.poll();
        for (int v : adj[u]) {
          if (row[v] < 0) {
            row[v] = row[u] + 1;
            queue.add(v);
          }
        }
      }
      for (int i = 0; i < n; i++) {
        if (row[i] < 0) {
          row[i] = n;
        }
      }
      d[from] = row;
    }
    return d;
  }
}
