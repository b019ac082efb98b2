package org.mpqoe.core.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mpqoe.core.scenario.ScenarioGenerator.LinkSource;
import org.mpqoe.core.scenario.ScenarioGenerator.LinkSpec;
import org.mpqoe.core.topology.Descriptor;
import org.mpqoe.core.topology.Host;
import org.mpqoe.core.topology.HostInterface;
import org.mpqoe.core.topology.Link;
import org.mpqoe.core.topology.LinkModel;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyException;
import org.mpqoe.core.topology.TopologyLoader;

/** The experiment descriptor carries the scenario's drawn links and says how it was made. */
class WithClientsTest {
  private final Topology compuserve = TopologyLoader.load("compuserve");

  /** Writes and reads back, as Mininet and the controller get it. */
  private static Topology written(Descriptor d) {
    return TopologyLoader.parse(TopologyLoader.write(d), "with-clients");
  }

  @ParameterizedTest(name = "{0}, {1} clients, seed {2}")
  @CsvSource({
    "compuserve, 5, 1",
    "compuserve, 10, 7",
    "compuserve, 30, 3",
    "custom12, 5, 2",
    "jellyfish20, 20, 11"
  })
  void drawnLinksAreExactlyTheScenariosDraws(String name, int clients, long seed) {
    Topology t = TopologyLoader.load(name);
    Scenario s = ScenarioGenerator.generate(t, clients, 3, seed, LinkSource.PAPER);
    Topology w =
        written(ScenarioGenerator.withClients(t, clients, 3, seed, LinkSpec.of(LinkSource.PAPER)));
    assertEquals(t.links().size(), w.links().size());
    int differFromNominal = 0;
    for (Link l : w.links()) {
      Link nominal = t.links().get(l.index());
      assertEquals(nominal.a().name(), l.a().name());
      assertEquals(nominal.b().name(), l.b().name());
      assertEquals(s.links().capacityMbps(l.index()), l.capacityMbps(), "link " + l.index());
      assertEquals(s.links().delayMs(l.index()), l.delayMs(), "link " + l.index());
      assertEquals(nominal.lossPct(), l.lossPct());
      differFromNominal += l.capacityMbps() != nominal.capacityMbps() ? 1 : 0;
    }
    assertTrue(differFromNominal > 0, "the nominal values were replaced");
    // The file's links read as nominal give the same state the selectors draw.
    assertEquals(
        s.links().toString(),
        ScenarioGenerator.generate(w, clients, 3, seed, LinkSource.DESCRIPTOR).links().toString());
    for (int k = 0; k < clients; k++) {
      assertEquals(
          s.clients().get(k).host().firstHop().name(), w.clients().get(k).firstHop().name());
    }
  }

  @Test
  void autoDrawsOnATopologyWithALinkModelAndDescriptorKeepsTheNominalValues() {
    var paper = ScenarioGenerator.withClients(compuserve, 5, 3, 1, LinkSpec.of(LinkSource.PAPER));
    var auto = ScenarioGenerator.withClients(compuserve, 5, 3, 1, LinkSpec.of(LinkSource.AUTO));
    assertEquals(paper, auto);
    var nominal = ScenarioGenerator.withClients(compuserve, 5, 3, 1);
    assertEquals(compuserve.descriptor().links(), nominal.links());
    assertEquals(
        nominal,
        ScenarioGenerator.withClients(compuserve, 5, 3, 1, LinkSpec.of(LinkSource.DESCRIPTOR)));
    assertEquals(
        new Descriptor.DrawJson(1L, 5, 3, "descriptor", null, null, null, null, null, null, null),
        nominal.draw());
  }

  @Test
  void theDrawIsRecorded() {
    Descriptor d =
        ScenarioGenerator.withClients(compuserve, 10, 2, 4, LinkSpec.of(LinkSource.PAPER));
    Scenario s = ScenarioGenerator.generate(compuserve, 10, 2, 4, LinkSource.PAPER);
    Descriptor.DrawJson draw = written(d).descriptor().draw();
    assertEquals(4L, draw.seed());
    assertEquals(10, draw.clients());
    assertEquals(2, draw.interfaces());
    assertEquals("paper", draw.links());
    // Table I/II, CompuServe, 10 clients; delays 10-100 ms (section IV.A).
    assertEquals(new Descriptor.MomentsJson(13.06, 6.42), draw.bandwidthMbps());
    assertEquals(new Descriptor.RangeJson(10.0, 100.0), draw.delayMs());
    assertEquals(
        new Descriptor.MomentsJson(s.realised().mean(), s.realised().std()), draw.realisedMbps());
    assertNull(draw.accessCapacityMbps());
    assertEquals("compuserve-10c", d.name());
    assertTrue(d.description().endsWith("drawn from the GA paper's model (see \"draw\")."));
    // The link model stays: the file is still a CompuServe of the paper.
    assertEquals(compuserve.descriptor().scenario(), d.scenario());
  }

  @Test
  void bandwidthOverridesReplaceTheModelsMoments() {
    Topology fixed =
        written(
            ScenarioGenerator.withClients(
                compuserve, 5, 3, 1, new LinkSpec(LinkSource.PAPER, 4.0, 0.0, null)));
    for (Link l : fixed.links()) {
      assertEquals(4.0, l.capacityMbps(), "std 0: every link gets the mean");
      assertTrue(l.delayMs() >= 10 && l.delayMs() <= 100, "delays as the paper's");
    }
    assertEquals(new Descriptor.MomentsJson(4.0, 0.0), fixed.descriptor().draw().bandwidthMbps());

    // One moment alone keeps the model's other one.
    var meanOnly = new LinkSpec(LinkSource.AUTO, 20.0, null, null);
    Scenario s = ScenarioGenerator.generate(compuserve, 5, 3, 1, meanOnly);
    assertEquals(new LinkModel.Moments(20.0, 2.46), s.target());
    Descriptor d = ScenarioGenerator.withClients(compuserve, 5, 3, 1, meanOnly);
    assertEquals(new Descriptor.MomentsJson(20.0, 2.46), d.draw().bandwidthMbps());
    for (Link l : written(d).links()) {
      assertEquals(s.links().capacityMbps(l.index()), l.capacityMbps());
    }
    assertNotEquals(
        ScenarioGenerator.generate(compuserve, 5, 3, 1, LinkSource.PAPER).links().toString(),
        s.links().toString());
    var stdOnly = new LinkSpec(LinkSource.PAPER, null, 1.0, null);
    assertEquals(
        new LinkModel.Moments(7.33, 1.0),
        ScenarioGenerator.generate(compuserve, 5, 3, 1, stdOnly).target());
  }

  @Test
  void accessCapacityShapesEveryGeneratedClientInterface() {
    var spec = new LinkSpec(LinkSource.DESCRIPTOR, null, null, 12.5);
    Topology t = written(ScenarioGenerator.withClients(compuserve, 4, 3, 2, spec));
    assertEquals(4, t.clients().size());
    for (var c : t.clients()) {
      for (HostInterface f : c.interfaces()) {
        assertEquals(12.5, f.capacityMbps(), c.name());
      }
    }
    assertEquals(12.5, t.descriptor().draw().accessCapacityMbps());
    // The server keeps its own access links.
    assertEquals(
        compuserve.servers().get(0).interfaces().get(0).capacityMbps(),
        t.servers().get(0).interfaces().get(0).capacityMbps());
    // Links and placement are those of the same request without it.
    assertEquals(
        ScenarioGenerator.withClients(compuserve, 4, 3, 2).links(), t.descriptor().links());
    assertTrue(
        Double.isNaN(
            written(ScenarioGenerator.withClients(compuserve, 4, 3, 2))
                .clients()
                .get(0)
                .interfaces()
                .get(0)
                .capacityMbps()),
        "unshaped by default");
  }

  @Test
  void listedClientsThatDoNotJoinAreLeftOut() {
    Topology dc = TopologyLoader.load("qomra-dc");
    Topology w = written(ScenarioGenerator.withClients(dc, 5, 3, 1));
    assertEquals(
        List.of("h1", "h2", "h3", "h4", "h5"), w.clients().stream().map(Host::name).toList());
    assertEquals(
        dc.servers().stream().map(Host::name).toList(),
        w.servers().stream().map(Host::name).toList());
    assertEquals(dc.links().size(), w.links().size());
    for (int k = 0; k < 5; k++) {
      List<HostInterface> listed = dc.clients().get(k).interfaces();
      List<HostInterface> kept = w.clients().get(k).interfaces();
      assertEquals(
          listed.stream().map(f -> f.ip() + "@" + f.attachment().name()).toList(),
          kept.stream().map(f -> f.ip() + "@" + f.attachment().name()).toList());
    }
    Topology all = written(ScenarioGenerator.withClients(dc, 8, 3, 1));
    assertEquals(8, all.clients().size());
  }

  @Test
  void badRequestsAreRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ScenarioGenerator.withClients(
                    compuserve, 5, 3, 1, new LinkSpec(LinkSource.DESCRIPTOR, 3.0, null, null)));
    assertTrue(
        e.getMessage().startsWith("a bandwidth mean or std needs drawn links"), e.getMessage());
    Topology dc = TopologyLoader.load("qomra-dc");
    e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ScenarioGenerator.withClients(
                    dc, 2, 3, 1, new LinkSpec(LinkSource.AUTO, null, 1.0, null)));
    assertTrue(
        e.getMessage().endsWith("qomra-dc's links here are the descriptor's"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ScenarioGenerator.withClients(
                    dc, 2, 3, 1, new LinkSpec(LinkSource.DESCRIPTOR, null, null, 10.0)));
    assertEquals(
        "qomra-dc lists its clients; an access capacity applies to generated clients only",
        e.getMessage());
    assertThrows(
        TopologyException.class,
        () -> ScenarioGenerator.withClients(dc, 2, 3, 1, LinkSpec.of(LinkSource.PAPER)));
    assertThrows(
        TopologyException.class,
        () -> ScenarioGenerator.withClients(dc, 9, 3, 1, LinkSpec.of(LinkSource.DESCRIPTOR)));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      value = {
        "zero mean|0|-|-|the bandwidth mean must be a positive number of Mbit/s, got 0.0",
        "NaN mean|NaN|-|-|the bandwidth mean must be a positive number of Mbit/s, got NaN",
        "infinite mean|Infinity|-|-|the bandwidth mean must be a positive number of Mbit/s, got Infinity",
        "negative std|-|-1|-|the bandwidth standard deviation must be a number of Mbit/s >= 0, got -1.0",
        "zero access|-|-|0|the access capacity must be a positive number of Mbit/s, got 0.0",
        "negative access|-|-|-5|the access capacity must be a positive number of Mbit/s, got -5.0",
      })
  void badValuesAreRefused(String why, Double mean, Double std, Double access, String message) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new LinkSpec(LinkSource.PAPER, mean, std, access),
            why);
    assertEquals(message, e.getMessage(), why);
  }

  @Test
  void interfaceSwitchGroupsPutInterfaceKOnASwitchOfGroupK() {
    List<List<String>> groups =
        List.of(List.of("Columbus"), List.of("Chicago", "Atlanta"), List.of("Dallas"));
    var where = ScenarioGenerator.Placement.parse("Columbus; Chicago,Atlanta ;Dallas");
    assertEquals(groups, where.interfaceSwitches());
    Descriptor d =
        ScenarioGenerator.withClients(
            compuserve, 5, 3, 4, LinkSpec.of(LinkSource.DESCRIPTOR), where);
    Topology w = written(d);
    assertEquals(5, w.clients().size());
    boolean chicago = false;
    boolean atlanta = false;
    for (Host h : w.clients()) {
      for (int k = 0; k < 3; k++) {
        String at = h.interfaces().get(k).attachment().name();
        assertTrue(groups.get(k).contains(at), h.name() + " interface " + k + " on " + at);
        chicago |= at.equals("Chicago");
        atlanta |= at.equals("Atlanta");
      }
    }
    assertTrue(chicago && atlanta, "group 2 is drawn from, not its first switch only");
    assertEquals(groups, d.draw().interfaceSwitches());
    // Reproducible: the scenario of the same seed places its clients the same way.
    Scenario s =
        ScenarioGenerator.generate(compuserve, 5, 3, 4, LinkSpec.of(LinkSource.DESCRIPTOR), where);
    for (int c = 0; c < 5; c++) {
      for (int k = 0; k < 3; k++) {
        assertEquals(
            s.clients().get(c).host().interfaces().get(k).attachment().name(),
            w.clients().get(c).interfaces().get(k).attachment().name());
      }
    }
  }

  @Test
  void interfaceSwitchGroupsAreCheckedWithClearErrors() {
    var spec = LinkSpec.of(LinkSource.DESCRIPTOR);
    var two = ScenarioGenerator.Placement.parse("Columbus;Dallas");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ScenarioGenerator.withClients(compuserve, 2, 3, 1, spec, two));
    assertTrue(e.getMessage().contains("2 group(s) for 3 interfaces"), e.getMessage());
    var unknown = ScenarioGenerator.Placement.parse("Columbus;Dallas;Nowhere");
    TopologyException t =
        assertThrows(
            TopologyException.class,
            () -> ScenarioGenerator.withClients(compuserve, 2, 3, 1, spec, unknown));
    assertTrue(t.getMessage().contains("no switch 'Nowhere'"), t.getMessage());
    IllegalArgumentException empty =
        assertThrows(
            IllegalArgumentException.class, () -> ScenarioGenerator.Placement.parse("a;;b"));
    assertTrue(empty.getMessage().contains("group 2 names no switch"), empty.getMessage());
  }

  @Test
  void withoutGroupsThePlacementIsTheOneSwitchDefault() {
    var spec = LinkSpec.of(LinkSource.DESCRIPTOR);
    assertEquals(
        TopologyLoader.write(ScenarioGenerator.withClients(compuserve, 5, 3, 9, spec)),
        TopologyLoader.write(
            ScenarioGenerator.withClients(
                compuserve, 5, 3, 9, spec, ScenarioGenerator.Placement.parse(" "))));
    assertNull(ScenarioGenerator.withClients(compuserve, 5, 3, 9, spec).draw().interfaceSwitches());
  }
}
