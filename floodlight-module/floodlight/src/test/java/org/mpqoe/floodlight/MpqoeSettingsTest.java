package org.mpqoe.floodlight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.control.ControlConfig;
import org.mpqoe.core.select.QomraConfig;
import org.mpqoe.core.select.Resolution;

class MpqoeSettingsTest {
  private static final String PREFIX = MpqoeModule.class.getCanonicalName() + ".";

  private static String error(Map<String, String> params) {
    return assertThrows(IllegalArgumentException.class, () -> MpqoeSettings.parse(params))
        .getMessage();
  }

  @Test
  void onlyATopologyGivesTheStandaloneControllersDefaults() {
    MpqoeSettings s = MpqoeSettings.parse(Map.of("topology", "three-path"));
    assertEquals("three-path", s.topology());
    assertEquals(ControlConfig.defaults(), s.config());
    assertFalse(s.useLldpLatency());
  }

  @Test
  void everyParameterIsRead() {
    Map<String, String> p = new HashMap<>();
    p.put("topology", " /tmp/x.json ");
    p.put("algorithm", "exact");
    p.put("maxHops", "5");
    p.put("idleTimeoutS", "30");
    p.put("statsIntervalS", "1");
    p.put("segmentRouting", "TRUE");
    p.put("selectAt", "first-packet");
    p.put("alpha", "0.7");
    p.put("beta", "0.3");
    p.put("thrDelayMs", "21.5");
    p.put("thrCong", "0.9");
    p.put("useLldpLatency", "yes");
    p.put("qomraK", "4");
    p.put("qomraIntervalS", "2.5");
    p.put("qomraResolution", "720p");
    p.put("qomraDelayWeight", "0.5");
    p.put("qomraLossWeight", "0");
    p.put("qomraCriticalityWeight", "2");
    p.put("qomraCongestionWeight", "3");
    p.put("restToken", "t");
    p.put("servers", "10.0.0.9, 10.0.1.9");
    p.put("hostGrouping", "per-address");
    p.put("defaultLinkCapacityMbps", "100");
    MpqoeSettings s = MpqoeSettings.parse(p);
    assertEquals(java.util.Set.of("10.0.0.9", "10.0.1.9"), s.discovery().serverIps());
    assertEquals(
        org.mpqoe.core.topology.TopologyBuilder.Grouping.PER_ADDRESS, s.discovery().grouping());
    assertEquals(100, s.discovery().defaultCapacityMbps());
    ControlConfig c = s.config();
    assertEquals("/tmp/x.json", s.topology());
    assertEquals("exact", c.algorithm());
    assertEquals(5, c.maxHops());
    assertEquals(30, c.idleTimeoutS());
    assertEquals(1, c.statsIntervalS());
    assertTrue(c.segmentRouting());
    assertTrue(c.selectsEarly());
    assertEquals(0.7, c.selection().alpha());
    assertEquals(0.3, c.selection().beta());
    assertEquals(21.5, c.selection().thrDelayMs());
    assertEquals(0.9, c.selection().thrCong());
    assertTrue(s.useLldpLatency());
    assertEquals(
        new QomraConfig(4, 2.5, Resolution.P720, 0.5, 0, 2, 3), c.qomra(), "QoMRA parameters");
    assertEquals(ControlConfig.defaults().ga(), c.ga());
    assertEquals(ControlConfig.defaults().subflowPriority(), c.subflowPriority());
    assertEquals(MpqoeSettings.NAMES.size(), p.size(), "every parameter exercised");
  }

  @Test
  void blankValuesTakeTheDefault() {
    MpqoeSettings s =
        MpqoeSettings.parse(Map.of("topology", "compuserve", "algorithm", " ", "maxHops", ""));
    assertEquals(ControlConfig.defaults(), s.config());
  }

  @Test
  void badParametersAreNamed() {
    assertTrue(
        error(Map.of("topology", "compuserve", "max-hops", "3"))
            .startsWith(
                "unknown parameter 'max-hops' (known: topology, useLldpLatency, restToken,"
                    + " algorithm, alpha, "));
    assertTrue(
        error(Map.of("algorithm", "ga"))
            .startsWith(
                "invalid mpqoe parameters: 'servers' is required without a topology descriptor"));
    assertEquals(
        "invalid mpqoe parameters: 'servers' must be IPv4 addresses, comma-separated, got"
            + " '10.0.0'",
        error(Map.of("servers", "10.0.0.1,10.0.0")));
    assertEquals(
        "invalid mpqoe parameters: 'hostGrouping' must be one of address-plan, per-address, got"
            + " 'mac'",
        error(Map.of("servers", "10.0.0.1", "hostGrouping", "mac")));
    assertEquals(
        "invalid mpqoe parameters: 'defaultLinkCapacityMbps' must be a finite number, above 0, at"
            + " most 1000000, got '1e400'",
        error(Map.of("servers", "10.0.0.1", "defaultLinkCapacityMbps", "1e400")));
    assertTrue(
        error(Map.of("topology", "compuserve", "lldpIntervalS", "2"))
            .startsWith("parameter 'lldpIntervalS' is the standalone controller's"));
    assertFalse(MpqoeSettings.NAMES.contains("linkTimeoutS"), "not read by the module");
    assertEquals(
        java.util.Set.of("10.0.0.1"),
        MpqoeSettings.parse(Map.of("servers", "10.0.0.1")).discovery().serverIps(),
        "servers alone: the topology is what was discovered");
    assertEquals(
        "invalid mpqoe parameters: 'maxHops' must be an integer, 1 to 64, got 'eight'",
        error(Map.of("topology", "compuserve", "maxHops", "eight")));
    assertEquals(
        "invalid mpqoe parameters: 'alpha' must be a finite number, 0 to 1, got '1,5'",
        error(Map.of("topology", "compuserve", "alpha", "1,5")));
    assertEquals(
        "invalid mpqoe parameters: 'segmentRouting' must be true or false, got 'on'",
        error(Map.of("topology", "compuserve", "segmentRouting", "on")));
    assertEquals(
        "'useLldpLatency' must be true or false, got 'maybe'",
        error(Map.of("topology", "compuserve", "useLldpLatency", "maybe")));
  }

  @Test
  void outOfRangeAndNonFiniteValuesAreRefused() {
    assertEquals(
        "invalid mpqoe parameters: 'alpha' must be a finite number, 0 to 1, got '1e400'",
        error(Map.of("topology", "compuserve", "alpha", "1e400")));
    assertEquals(
        "invalid mpqoe parameters: 'thrCong' must be a finite number, 0 to 10, got '1e309'",
        error(Map.of("topology", "compuserve", "thrCong", "1e309")));
    assertEquals(
        "invalid mpqoe parameters: 'idleTimeoutS' must be an integer, 1 to 65535, got '0'",
        error(Map.of("topology", "compuserve", "idleTimeoutS", "0")));
    assertEquals(
        "invalid mpqoe parameters: alpha and beta must be >= 0 and not both 0",
        error(Map.of("topology", "compuserve", "alpha", "0", "beta", "0")));
    assertEquals(
        "invalid mpqoe parameters: 'qomraK' must be an integer, 1 to 64, got '2.5'",
        error(Map.of("topology", "qomra-dc", "qomraK", "2.5")));
  }

  @Test
  void everyParameterIsDocumented() throws IOException {
    String doc =
        Files.readString(
            Path.of(System.getProperty("user.dir"), "..", "..", "docs", "floodlight.md"));
    for (String name : MpqoeSettings.NAMES) {
      assertTrue(doc.contains("| `" + name + "` |"), name + " has a row in docs/floodlight.md");
    }
  }

  @Test
  void theTokenIsReadButNeverPrinted() {
    MpqoeSettings s =
        MpqoeSettings.parse(Map.of("topology", "compuserve", "restToken", " s3cret "));
    assertEquals("s3cret", s.restToken());
    assertFalse(s.toString().contains("s3cret"), s.toString());
    assertEquals(
        null, MpqoeSettings.parse(Map.of("topology", "compuserve", "restToken", "")).restToken());
  }

  @Test
  void theExamplePropertiesFileLoadsTheModuleWithValidParameters() throws IOException {
    Properties props = new Properties();
    try (InputStream in = getClass().getResourceAsStream("/mpqoe-floodlight.properties")) {
      assertNotNull(in, "mpqoe-floodlight.properties is in the jar");
      props.load(in);
    }
    assertTrue(
        props.getProperty("floodlight.modules").contains("org.mpqoe.floodlight.MpqoeModule"));
    Map<String, String> params = new HashMap<>();
    for (String k : props.stringPropertyNames()) {
      if (k.startsWith(PREFIX)) {
        params.put(k.substring(PREFIX.length()), props.getProperty(k));
      }
    }
    assertEquals(MpqoeSettings.NAMES.size(), params.size(), "every parameter is shown");
    MpqoeSettings s = MpqoeSettings.parse(params);
    assertEquals("compuserve", s.topology());
    assertEquals(ControlConfig.defaults(), s.config(), "the example shows the defaults");
  }

  @Test
  void describeSaysWhereDelaysComeFrom() {
    String d =
        MpqoeSettings.parse(Map.of("topology", "compuserve", "useLldpLatency", "true")).describe();
    assertTrue(
        d.startsWith(
            "topology compuserve (overlay on what was discovered), algorithm ga, alpha 0.4"),
        d);
    assertTrue(d.endsWith("per-hop rules, link delays from LLDP"), d);
    String own = MpqoeSettings.parse(Map.of("topology", "compuserve")).describe();
    assertTrue(own.endsWith("link delays from the descriptor"), own);
    // without a descriptor the discovered links carry LLDP's latencies
    String none = MpqoeSettings.parse(Map.of("topology", "", "servers", "10.0.1.1")).describe();
    assertTrue(none.startsWith("topology discovered, servers 10.0.1.1"), none);
    assertTrue(none.endsWith("link delays from LLDP"), none);
    String q =
        MpqoeSettings.parse(
                Map.of("topology", "qomra-dc", "algorithm", "qomra", "qomraResolution", "360p"))
            .describe();
    assertTrue(
        q.endsWith(
            ", QoMRA k 3, t 10.0 s, 360p (b_r 0.725 Mbit/s a subflow), weights"
                + " delay 1.0 loss 1.0 criticality 1.0 congestion 1.0"),
        q);
  }
}
