package org.mpqoe.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.select.QomraConfig;
import org.mpqoe.core.select.Resolution;
import org.mpqoe.core.select.Selectors;
import org.mpqoe.core.topology.TopologyBuilder;

class SettingsSchemaTest {
  private static String error(Map<String, String> text) {
    return assertThrows(
            IllegalArgumentException.class,
            () -> SettingsSchema.parse(ControlConfig.defaults(), text))
        .getMessage();
  }

  @Test
  void everySettingFromTextIsReadAndChecked() {
    Map<String, String> p = new HashMap<>();
    p.put("algorithm", "exact");
    p.put("maxHops", "5");
    p.put("idleTimeoutS", "30");
    p.put("statsIntervalS", "1");
    p.put("segmentRouting", "TRUE");
    p.put("selectAt", "first-packet");
    p.put("alpha", "0.7");
    p.put("beta", " 0.3 ");
    p.put("thrDelayMs", "21.5");
    p.put("thrCong", "0.9");
    p.put("qomraK", "4");
    p.put("qomraIntervalS", "2.5");
    p.put("qomraResolution", "720p");
    p.put("qomraDelayWeight", "0.5");
    p.put("qomraLossWeight", "0");
    p.put("qomraCriticalityWeight", "2");
    p.put("qomraCongestionWeight", "3");
    p.put("servers", " 10.0.2.1,10.0.1.001 ");
    p.put("hostGrouping", "per-address");
    p.put("defaultLinkCapacityMbps", "100");
    p.put("lldpIntervalS", "2");
    p.put("linkTimeoutS", "9");
    assertEquals(SettingsSchema.ALL.size(), p.size(), "every setting exercised");
    ControlConfig c = SettingsSchema.parse(ControlConfig.defaults(), p);
    assertEquals("exact", c.algorithm());
    assertEquals(5, c.maxHops());
    assertEquals(30, c.idleTimeoutS());
    assertEquals(1, c.statsIntervalS());
    assertTrue(c.segmentRouting());
    assertEquals("first-packet", c.selectAt());
    assertTrue(c.selectsEarly());
    assertEquals(0.7, c.selection().alpha());
    assertEquals(0.3, c.selection().beta());
    assertEquals(21.5, c.selection().thrDelayMs());
    assertEquals(0.9, c.selection().thrCong());
    assertEquals(new QomraConfig(4, 2.5, Resolution.P720, 0.5, 0, 2, 3), c.qomra());
    assertEquals(ControlConfig.defaults().ga(), c.ga(), "what the schema does not name stays");
    assertEquals(
        new DiscoveryConfig(
            List.of("10.0.1.1", "10.0.2.1"), TopologyBuilder.Grouping.PER_ADDRESS, 100, 2, 9),
        c.discovery(),
        "addresses in their usual form, sorted");
  }

  @Test
  void addressListsAreCheckedOneByOne() {
    assertEquals(
        "'servers' must be IPv4 addresses, comma-separated, got '10.0.0'",
        error(Map.of("servers", "10.0.0.1,10.0.0")));
    assertEquals(
        "'servers' must be IPv4 addresses, comma-separated, got ''",
        error(Map.of("servers", "10.0.0.1,")));
    String m = error(Map.of("servers", "10.0.0.1," + "9".repeat(10_000)));
    assertTrue(m.endsWith("...' (10000 characters)"), m);
    SettingsSchema.Setting servers = SettingsSchema.named("servers").orElseThrow();
    JsonMapper json = new JsonMapper();
    assertEquals(List.of("10.0.0.1"), servers.fromJson(json.createArrayNode().add("10.0.0.1")));
    assertThrows(
        IllegalArgumentException.class,
        () -> servers.fromJson(json.getNodeFactory().textNode("10.0.0.1")));
    assertThrows(
        IllegalArgumentException.class, () -> servers.fromJson(json.createArrayNode().add(10)));
    assertEquals("none", servers.defaultText());
  }

  @Test
  void theLinkTimeoutFollowsTheProbePeriodUnlessGiven() {
    assertEquals(
        30,
        SettingsSchema.parse(ControlConfig.defaults(), Map.of("lldpIntervalS", "10"))
            .discovery()
            .linkTimeoutS());
    assertEquals(
        11,
        SettingsSchema.parse(
                ControlConfig.defaults(), Map.of("lldpIntervalS", "10", "linkTimeoutS", "11"))
            .discovery()
            .linkTimeoutS());
    assertEquals(
        "'linkTimeoutS' (15 s) must be longer than 'lldpIntervalS' (15 s)",
        error(Map.of("linkTimeoutS", "15", "lldpIntervalS", "15")));
    assertEquals(
        "'linkTimeoutS' (4 s) must be longer than 'lldpIntervalS' (5 s)",
        error(Map.of("linkTimeoutS", "4")));
  }

  @Test
  void withoutADescriptorTheServersAreRequired() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> DiscoveryConfig.DEFAULTS.topologyOptions(false));
    assertTrue(e.getMessage().startsWith("'servers' is required without a topology descriptor"));
    assertEquals(Set.of(), DiscoveryConfig.DEFAULTS.topologyOptions(true).serverIps());
    TopologyBuilder.Options o =
        DiscoveryConfig.DEFAULTS.withServers(List.of("10.0.1.1")).topologyOptions(false);
    assertEquals(Set.of("10.0.1.1"), o.serverIps());
    assertEquals(DiscoveryConfig.DISCOVERED, o.name());
    assertEquals(1000.0, o.defaultCapacityMbps());
  }

  @Test
  void onlyTheLldpSettingsAreTheStandaloneRuntimes() {
    assertEquals(
        List.of("lldpIntervalS", "linkTimeoutS"),
        SettingsSchema.ALL.stream()
            .filter(SettingsSchema.Setting::standaloneOnly)
            .map(SettingsSchema.Setting::name)
            .toList());
  }

  @Test
  void blankTextKeepsTheDefault() {
    assertEquals(
        ControlConfig.defaults(),
        SettingsSchema.parse(ControlConfig.defaults(), Map.of("algorithm", " ", "maxHops", "")));
  }

  @Test
  void outOfRangeNonFiniteAndMalformedValuesAreRefusedByName() {
    assertEquals(
        "'alpha' must be a finite number, 0 to 1, got '1e400'", error(Map.of("alpha", "1e400")));
    assertEquals(
        "'thrCong' must be a finite number, 0 to 10, got '1e309'",
        error(Map.of("thrCong", "1e309")));
    assertEquals(
        "'thrDelayMs' must be a finite number, above 0, at most 60000, got 'NaN'",
        error(Map.of("thrDelayMs", "NaN")));
    assertEquals(
        "'maxHops' must be an integer, 1 to 64, got 'eight'", error(Map.of("maxHops", "eight")));
    assertEquals(
        "'idleTimeoutS' must be an integer, 1 to 65535, got '70000'",
        error(Map.of("idleTimeoutS", "70000")));
    assertEquals(
        "'segmentRouting' must be true or false, got 'on'", error(Map.of("segmentRouting", "on")));
    assertTrue(
        error(Map.of("algorithm", "best"))
            .startsWith("'algorithm' must be one of ga, ga-tuned, exact,"));
    assertEquals(
        "'qomraResolution' must be one of 1080p, 720p, 480p, 360p, 240p, got '4k'",
        error(Map.of("qomraResolution", "4k")));
    assertEquals(
        "alpha and beta must be >= 0 and not both 0", error(Map.of("alpha", "0", "beta", "0")));
    assertTrue(error(Map.of("max-hops", "3")).startsWith("unknown setting 'max-hops' (known: "));
  }

  @Test
  void aLongValueIsQuotedShort() {
    String m = error(Map.of("algorithm", "y".repeat(100_000)));
    assertTrue(m.length() < 300, m);
    assertTrue(m.endsWith("...' (100000 characters)"), m);
  }

  @Test
  void theAlgorithmsAreSelectorsNames() {
    assertEquals(Selectors.NAMES, SettingsSchema.named("algorithm").orElseThrow().choices());
  }

  @Test
  void everyDefaultIsInItsOwnRange() {
    for (SettingsSchema.Setting s : SettingsSchema.ALL) {
      Object d = s.defaultValue();
      assertEquals(d, s.check(d), s.name());
      assertEquals(d, s.parse(s.format(d)), s.name() + " round trip through text");
    }
  }

  /** docs/floodlight.md's settings table is the schema's, row for row. */
  @Test
  void theDocumentedTableIsTheSchemas() throws IOException {
    Path doc = Path.of(System.getProperty("user.dir"), "..", "..", "docs", "floodlight.md");
    List<String> lines = Files.readAllLines(doc);
    List<String> documented =
        lines.stream()
            .filter(l -> l.startsWith("| `"))
            .filter(
                l ->
                    SettingsSchema.ALL.stream()
                        .anyMatch(s -> l.startsWith("| `" + s.name() + "` |")))
            .toList();
    assertEquals(
        String.join("\n", SettingsSchema.markdownRows()),
        String.join("\n", documented),
        "docs/floodlight.md's settings rows must be SettingsSchema.markdownRows() (paste them)");
  }
}
