package org.mpqoe.core.topology;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jgrapht.Graph;
import org.jgrapht.GraphMapping;
import org.jgrapht.alg.isomorphism.VF2GraphIsomorphismInspector;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.SimpleGraph;

/**
 * Every way one topology's switch graph is another's: the isomorphisms between the two undirected
 * graphs of switches and switch-to-switch links (hosts and link values play no part), found by
 * JGraphT's VF2 inspector.
 */
public final class SwitchGraphMatch {
  private SwitchGraphMatch() {}

  /**
   * The isomorphisms from {@code from}'s switch graph onto {@code to}'s, each a map from every
   * switch of {@code from} (in its descriptor order) to a switch of {@code to}; ordered by the
   * images' positions in {@code to}, switch by switch. Empty when the graphs differ.
   *
   * @throws TopologyException when either has parallel links (a multigraph)
   */
  public static List<Map<String, String>> isomorphisms(Topology from, Topology to) {
    Graph<String, DefaultEdge> a = graph(from);
    Graph<String, DefaultEdge> b = graph(to);
    List<Map<String, String>> out = new ArrayList<>();
    if (a.vertexSet().size() != b.vertexSet().size() || a.edgeSet().size() != b.edgeSet().size()) {
      return out;
    }
    Iterator<GraphMapping<String, DefaultEdge>> it =
        new VF2GraphIsomorphismInspector<>(a, b).getMappings();
    while (it.hasNext()) {
      GraphMapping<String, DefaultEdge> m = it.next();
      Map<String, String> map = new LinkedHashMap<>();
      for (SwitchNode s : from.switches()) {
        map.put(s.name(), m.getVertexCorrespondence(s.name(), true));
      }
      out.add(map);
    }
    Map<String, Integer> pos = new HashMap<>();
    for (SwitchNode s : to.switches()) {
      pos.put(s.name(), s.index());
    }
    Comparator<Map<String, String>> byImages =
        (x, y) -> {
          for (SwitchNode s : from.switches()) {
            int c = Integer.compare(pos.get(x.get(s.name())), pos.get(y.get(s.name())));
            if (c != 0) {
              return c;
            }
          }
          return 0;
        };
    out.sort(byImages);
    return out;
  }

  /** The switch graph of {@code t}: one vertex per switch, one edge per link. */
  static Graph<String, DefaultEdge> graph(Topology t) {
    Graph<String, DefaultEdge> g = new SimpleGraph<>(DefaultEdge.class);
    for (SwitchNode s : t.switches()) {
      g.addVertex(s.name());
    }
    for (Link l : t.links()) {
      if (l.a().equals(l.b()) || g.containsEdge(l.a().name(), l.b().name())) {
        throw new TopologyException(
            t.name()
                + " has parallel links or a loop at "
                + l.a().name()
                + " - "
                + l.b().name()
                + "; switch graphs are matched as simple graphs");
      }
      g.addEdge(l.a().name(), l.b().name());
    }
    return g;
  }
}
