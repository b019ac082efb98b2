package org.mpqoe.core.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link SwitchGraphMatch}: the framework's network is CompuServe, in exactly two ways. */
class SwitchGraphMatchTest {
  /** Mapping (a): the framework's s1..s11 onto CompuServe's cities. */
  static final List<String> A =
      List.of(
          "Seattle",
          "San Francisco",
          "Los Angeles",
          "Dallas",
          "Houston",
          "Atlanta",
          "Washington DC",
          "New York",
          "Boston",
          "Chicago",
          "Columbus");

  /** Mapping (b): (a) mirrored, Seattle/Los Angeles, Dallas/Chicago, Houston/Boston, Atlanta/NY. */
  static final List<String> B =
      List.of(
          "Los Angeles",
          "San Francisco",
          "Seattle",
          "Chicago",
          "Boston",
          "New York",
          "Washington DC",
          "Atlanta",
          "Houston",
          "Dallas",
          "Columbus");

  static Map<String, String> mapping(List<String> images) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < images.size(); i++) {
      m.put("s" + (i + 1), images.get(i));
    }
    return m;
  }

  @Test
  void theFrameworkNetworkMapsOntoCompuserveInExactlyTwoMirroredWays() {
    Topology framework = FrameworkWiring.network();
    assertEquals(11, framework.switches().size());
    assertEquals(14, framework.links().size());
    List<Map<String, String>> m =
        SwitchGraphMatch.isomorphisms(framework, TopologyLoader.load("compuserve"));
    assertEquals(List.of(mapping(A), mapping(B)), m);
  }

  @Test
  void aGraphMapsOntoItselfByItsAutomorphisms() {
    Topology c = TopologyLoader.load("compuserve");
    List<Map<String, String>> m = SwitchGraphMatch.isomorphisms(c, c);
    assertEquals(2, m.size());
    for (SwitchNode s : c.switches()) {
      assertEquals(s.name(), m.get(0).get(s.name()), "identity first");
    }
  }

  @Test
  void differentGraphsGiveNone() {
    Topology framework = FrameworkWiring.network();
    assertEquals(List.of(), SwitchGraphMatch.isomorphisms(framework, load("custom12")));
    // Same size, other wiring: CompuServe with one link moved.
    String moved =
        text("compuserve")
            .replaceFirst(
                "\"a\": \"Seattle\",\\s*\"b\": \"Chicago\"",
                "\"a\": \"Seattle\", \"b\": \"Dallas\"");
    Topology other = TopologyLoader.parse(moved, "moved");
    assertEquals(14, other.links().size());
    assertEquals(List.of(), SwitchGraphMatch.isomorphisms(framework, other));
  }

  @Test
  void parallelLinksAreRefusedClearly() {
    String doubled =
        text("compuserve")
            .replaceFirst(
                "\"links\": \\[",
                "\"links\": [{\"a\": \"Seattle\", \"b\": \"Chicago\", \"capacityMbps\": 1,"
                    + " \"delayMs\": 1},");
    Topology t = TopologyLoader.parse(doubled, "doubled");
    TopologyException e =
        assertThrows(
            TopologyException.class,
            () -> SwitchGraphMatch.isomorphisms(t, TopologyLoader.load("compuserve")));
    assertTrue(e.getMessage().contains("parallel links"), e.getMessage());
    assertTrue(e.getMessage().contains("Seattle - Chicago"), e.getMessage());
  }

  private static Topology load(String name) {
    return TopologyLoader.load(name);
  }

  private static String text(String name) {
    return TopologyLoader.write(TopologyLoader.load(name).descriptor());
  }
}
