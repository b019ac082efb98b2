package org.mpqoe.core.control;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.topology.Link;
import org.mpqoe.core.topology.SwitchNode;
import org.mpqoe.core.topology.Topology;

/**
 * Segment routing over MPLS (QoMRA, Barakabitze et al.): a chosen path becomes the shortest list of
 * segments that makes shortest-path forwarding (by hop count) follow it. From the current node the
 * longest prefix of the rest of the path that is the <em>unique</em> shortest path between its ends
 * becomes one node segment (its last node); where even the next single link is not that (a parallel
 * link, or a link that is not a shortest route between its ends) an adjacency segment names the
 * link itself. Greedy longest prefixes give the fewest segments.
 *
 * <p>Labels: node segment of switch i = {@code 16000 + i}; adjacency segment of link l taken from
 * its end a = {@code 20000 + 2l}, from its end b = {@code 20001 + 2l}. Every switch has the same
 * proactive label rules in table {@link #LABEL_TABLE}: a node label is forwarded to the next hop of
 * the shortest path towards its node, and popped by the penultimate hop (so the node itself sees
 * the next label, or plain IPv4 at the end); an adjacency label is popped and sent over its link.
 */
public final class SegmentRouting {
  /** Table of the label rules; table 0 holds subflow rules and sends MPLS frames here. */
  public static final int LABEL_TABLE = 1;

  /**
   * The deepest label stack a path may need. Open vSwitch keeps at most three MPLS label stack
   * entries per packet (its {@code FLOW_MAX_MPLS_LABELS}) and drops a packet that a push would give
   * a fourth, so a path that needs more segments cannot be steered by labels there: with segment
   * routing such a path is not a candidate (RFC 8491 calls this a node's maximum SID depth).
   */
  public static final int MAX_LABEL_DEPTH = 3;

  public static final int NODE_BASE = 16000;
  public static final int ADJACENCY_BASE = 20000;

  /** A segment: a node (switch index) or an adjacency (link index, from which end). */
  public sealed interface Segment {
    int label();

    /** Forward by shortest path to this switch. */
    record Node(int switchIndex) implements Segment {
      @Override
      public int label() {
        return NODE_BASE + switchIndex;
      }
    }

    /** Take this link from {@code from}. */
    record Adjacency(int link, int from, boolean fromA) implements Segment {
      @Override
      public int label() {
        return ADJACENCY_BASE + 2 * link + (fromA ? 0 : 1);
      }
    }
  }

  private final Topology topology;
  private final int[][] dist;
  private final int[][] count;
  private final int[][] nextLink;

  public SegmentRouting(Topology topology) {
    this.topology = topology;
    int n = topology.switches().size();
    dist = new int[n][];
    count = new int[n][];
    nextLink = new int[n][];
    for (int s = 0; s < n; s++) {
      bfs(s);
    }
  }

  /** The segments that steer a packet along {@code path}. Empty for a link-less path. */
  public List<Segment> encode(Path path) {
    int[] nodes = path.switches();
    int[] links = path.links();
    List<Segment> segments = new ArrayList<>();
    int i = 0;
    while (i < links.length) {
      int j = i;
      while (j < links.length && uniqueShortest(nodes[i], nodes[j + 1], j + 1 - i)) {
        j++;
      }
      if (j > i) {
        segments.add(new Segment.Node(nodes[j]));
        i = j;
      } else {
        Link l = topology.links().get(links[i]);
        segments.add(new Segment.Adjacency(l.index(), nodes[i], l.a().index() == nodes[i]));
        i++;
      }
    }
    return segments;
  }

  /** True when the path's label stack is at most {@link #MAX_LABEL_DEPTH} deep. */
  public boolean fits(Path path) {
    return encode(path).size() <= MAX_LABEL_DEPTH;
  }

  /** Labels of {@link #encode}, first segment first. */
  public List<Integer> labels(Path path) {
    return encode(path).stream().map(Segment::label).toList();
  }

  /**
   * The proactive label rules of one switch (table {@link #LABEL_TABLE}), plus the table-0 rule
   * that sends MPLS frames there.
   */
  public List<FlowRule> labelRules(SwitchNode at, int priority) {
    int u = at.index();
    long dpid = at.dpid();
    long cookie = Cookies.of(Cookies.LABEL);
    List<FlowRule> rules = new ArrayList<>();
    rules.add(
        new FlowRule(
            dpid,
            0,
            priority,
            new FlowMatch.AnyMpls(),
            List.of(new FlowAction.GotoTable(LABEL_TABLE)),
            0,
            cookie,
            false));
    for (SwitchNode t : topology.switches()) {
      int v = t.index();
      if (v == u || nextLink[u][v] < 0) {
        continue;
      }
      Link l = topology.links().get(nextLink[u][v]);
      int port = l.portAt(at);
      boolean penultimate = l.other(at).index() == v;
      int label = NODE_BASE + v;
      if (penultimate) {
        rules.addAll(popAndOutput(dpid, label, port, priority, cookie));
      } else {
        for (boolean bos : new boolean[] {false, true}) {
          rules.add(
              new FlowRule(
                  dpid,
                  LABEL_TABLE,
                  priority,
                  new FlowMatch.Label(label, bos),
                  List.of(new FlowAction.Output(port)),
                  0,
                  cookie,
                  false));
        }
      }
    }
    for (Link l : topology.links()) {
      if (l.a().index() == u || l.b().index() == u) {
        boolean fromA = l.a().index() == u;
        int label = ADJACENCY_BASE + 2 * l.index() + (fromA ? 0 : 1);
        rules.addAll(popAndOutput(dpid, label, l.portAt(at), priority, cookie));
      }
    }
    return rules;
  }

  private static List<FlowRule> popAndOutput(
      long dpid, int label, int port, int priority, long cookie) {
    List<FlowRule> rules = new ArrayList<>();
    for (boolean bos : new boolean[] {false, true}) {
      rules.add(
          new FlowRule(
              dpid,
              LABEL_TABLE,
              priority,
              new FlowMatch.Label(label, bos),
              List.of(new FlowAction.PopLabel(bos), new FlowAction.Output(port)),
              0,
              cookie,
              false));
    }
    return rules;
  }

  /** True when the hop-shortest path from a to b is unique and {@code hops} long. */
  boolean uniqueShortest(int a, int b, int hops) {
    return dist[a][b] == hops && count[a][b] == 1;
  }

  /** BFS by hop count from s: distance, number of shortest paths (capped at 2), first link. */
  private void bfs(int s) {
    int n = topology.switches().size();
    int[] d = new int[n];
    int[] c = new int[n];
    int[] first = new int[n];
    Arrays.fill(d, Integer.MAX_VALUE);
    Arrays.fill(first, -1);
    d[s] = 0;
    c[s] = 1;
    ArrayDeque<Integer> queue = new ArrayDeque<>();
    queue.add(s);
    List<List<Link>> adjacency = adjacency();
    while (!queue.isEmpty()) {
      int u = queue.poll();
      for (Link l : adjacency.get(u)) {
        int v = l.a().index() == u ? l.b().index() : l.a().index();
        if (d[v] == Integer.MAX_VALUE) {
          d[v] = d[u] + 1;
          c[v] = c[u];
          first[v] = u == s ? l.index() : first[u];
          queue.add(v);
        } else if (d[v] == d[u] + 1) {
          c[v] = Math.min(2, c[v] + c[u]);
        }
      }
    }
    dist[s] = d;
    count[s] = c;
    nextLink[s] = first;
  }

  private List<List<Link>> adjacency() {
    List<List<Link>> adj = new ArrayList<>();
    topology.switches().forEach(x -> adj.add(new ArrayList<>()));
    for (Link l : topology.links()) {
      adj.get(l.a().index()).add(l);
      adj.get(l.b().index()).add(l);
    }
    return adj;
  }
}
