package org.mpqoe.core.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link FrameworkWiring} and the committed attachments it must agree with. */
class FrameworkWiringTest {
  @Test
  void onTheFrameworkNetworkTheRuleIsTheFrameworksOwnWiring() {
    Topology fw = FrameworkWiring.network();
    Attachment own = Attachment.named(fw, "framework");
    assertEquals(List.of("s1", "s2", "s3"), own.clients());
    assertEquals(List.of("s5", "s7", "s9"), own.server());
    Attachment rule = FrameworkWiring.rule(fw);
    assertEquals(own.clients(), rule.clients());
    assertEquals(own.server(), rule.server());
  }

  @Test
  void compuservesAttachmentIsTheFrameworksWiringUnderMappingA() {
    Topology fw = FrameworkWiring.network();
    Topology cs = TopologyLoader.load("compuserve");
    Attachment own = Attachment.named(fw, "framework");
    Attachment cities = Attachment.named(cs, "framework");
    List<Map<String, String>> mappings = SwitchGraphMatch.isomorphisms(fw, cs);
    assertEquals(2, mappings.size());
    // Mapping (a) is the first (images in CompuServe's descriptor order); (b) gives the mirror.
    Map<String, String> a = mappings.get(0);
    assertEquals("Seattle", a.get("s1"));
    assertEquals(own.clients().stream().map(a::get).toList(), cities.clients());
    assertEquals(own.server().stream().map(a::get).toList(), cities.server());
    Map<String, String> b = mappings.get(1);
    assertEquals(
        List.of("Los Angeles", "San Francisco", "Seattle"),
        own.clients().stream().map(b::get).toList());
    // Both put the clients and the server on the same switches; only the interface order differs.
    assertEquals(
        Set.copyOf(cities.server()), Set.copyOf(own.server().stream().map(b::get).toList()));
    // The clients' MP_CAPABLE goes to the server's first address: the framework's s5 city.
    assertEquals(a.get("s5"), cities.server().get(0));
    assertEquals("Houston", cities.server().get(0));
  }

  @ParameterizedTest
  @ValueSource(strings = {"compuserve", "custom12", "jellyfish20"})
  void theCommittedAttachmentIsWhatTheRuleYields(String name) {
    Topology t = TopologyLoader.load(name);
    Attachment committed = Attachment.named(t, "framework");
    Attachment rule = FrameworkWiring.rule(t);
    assertEquals(committed.clients(), rule.clients(), name);
    assertEquals(committed.server(), rule.server(), name);
  }

  @Test
  void theRuleGivesTheFrameworkChoiceOnCompuserve() {
    Attachment r = FrameworkWiring.rule(TopologyLoader.load("compuserve"));
    Topology fw = FrameworkWiring.network();
    Map<String, String> a =
        SwitchGraphMatch.isomorphisms(fw, TopologyLoader.load("compuserve")).get(0);
    assertEquals(List.of(a.get("s1"), a.get("s2"), a.get("s3")), r.clients());
    assertEquals(List.of(a.get("s5"), a.get("s7"), a.get("s9")), r.server());
  }

  @Test
  void aTopologyWithoutSuchRoutesIsRefusedClearly() {
    TopologyException e =
        assertThrows(
            TopologyException.class, () -> FrameworkWiring.rule(TopologyLoader.load("three-path")));
    assertTrue(e.getMessage().contains("framework's wiring does not carry over"), e.getMessage());
  }

  @Test
  void unknownAttachmentsAndBadFilesAreRefusedClearly() {
    Topology cs = TopologyLoader.load("compuserve");
    TopologyException e =
        assertThrows(TopologyException.class, () -> Attachment.named(cs, "nowhere"));
    assertEquals("compuserve has no attachment 'nowhere' (known: framework)", e.getMessage());
    TopologyException none =
        assertThrows(
            TopologyException.class,
            () -> Attachment.named(TopologyLoader.load("parallel"), "framework"));
    assertTrue(none.getMessage().contains("(known: none)"), none.getMessage());
    TopologyException unknownSwitch =
        assertThrows(
            TopologyException.class,
            () ->
                Attachment.parse(
                    "{\"topology\": \"compuserve\", \"attachments\": {\"x\": {\"clients\":"
                        + " [\"Seattle\"], \"server\": [\"Paris\"]}}}",
                    "f.json",
                    cs));
    assertEquals(
        "f.json: attachment 'x': compuserve has no switch 'Paris'", unknownSwitch.getMessage());
    TopologyException wrongTopology =
        assertThrows(
            TopologyException.class,
            () -> Attachment.parse("{\"topology\": \"custom12\", \"attachments\": {}}", "f", cs));
    assertTrue(wrongTopology.getMessage().contains("\"topology\": \"compuserve\""));
  }
}
