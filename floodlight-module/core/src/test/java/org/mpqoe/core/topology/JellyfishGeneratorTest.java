package org.mpqoe.core.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jgrapht.Graph;
import org.jgrapht.alg.connectivity.ConnectivityInspector;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.SimpleGraph;
import org.junit.jupiter.api.Test;

class JellyfishGeneratorTest {

  @Test
  void committedDescriptorIsWhatItsStoredSeedGenerates() {
    Topology t = TopologyLoader.load("jellyfish20");
    Descriptor.GeneratorJson g = t.descriptor().generator();
    assertEquals("jellyfish", g.kind());
    Descriptor again =
        JellyfishGenerator.descriptor(
            t.name(), g.seed(), g.switches(), g.degree(), JellyfishGenerator.paperScenario());
    assertEquals(TopologyLoader.write(again), TopologyLoader.write(t.descriptor()));
  }

  @Test
  void graphIsSimpleFourRegularAndConnected() {
    Topology t = TopologyLoader.load("jellyfish20");
    assertEquals(20, t.switches().size());
    assertEquals(40, t.links().size());
    int[] degree = new int[20];
    Set<String> pairs = new HashSet<>();
    for (Link l : t.links()) {
      degree[l.a().index()]++;
      degree[l.b().index()]++;
      assertTrue(
          pairs.add(
              Math.min(l.a().index(), l.b().index())
                  + "-"
                  + Math.max(l.a().index(), l.b().index())));
    }
    for (int d : degree) {
      assertEquals(4, d);
    }
    Graph<Integer, DefaultEdge> g = new SimpleGraph<>(DefaultEdge.class);
    t.switches().forEach(s -> g.addVertex(s.index()));
    t.links().forEach(l -> g.addEdge(l.a().index(), l.b().index()));
    assertTrue(new ConnectivityInspector<>(g).isConnected());
  }

  @Test
  void seedsDecideTheWiring() {
    List<int[]> a = JellyfishGenerator.edges(1, 20, 4);
    List<int[]> b = JellyfishGenerator.edges(1, 20, 4);
    List<int[]> c = JellyfishGenerator.edges(2, 20, 4);
    assertEquals(render(a), render(b));
    assertNotEquals(render(a), render(c));
  }

  @Test
  void impossibleRegularGraphsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> JellyfishGenerator.edges(1, 5, 3));
    assertThrows(IllegalArgumentException.class, () -> JellyfishGenerator.edges(1, 4, 4));
  }

  private static String render(List<int[]> edges) {
    StringBuilder sb = new StringBuilder();
    edges.forEach(e -> sb.append(e[0]).append('-').append(e[1]).append(' '));
    return sb.toString();
  }
}
