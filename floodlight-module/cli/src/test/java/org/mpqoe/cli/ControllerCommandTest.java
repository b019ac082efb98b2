package org.mpqoe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpqoe.core.control.ControlConfig;
import org.mpqoe.core.control.SettingsSchema;
import org.mpqoe.core.select.Resolution;
import org.mpqoe.core.topology.TopologyBuilder;
import org.mpqoe.openflow.StandaloneController;
import picocli.CommandLine;

/** The controller's options come from the settings schema; parsed, not run. */
class ControllerCommandTest {
  private static ControllerCommand parsed(String... args) {
    CommandLine cl = new CommandLine(new ControllerCommand());
    cl.parseArgs(args);
    return cl.getCommand();
  }

  @Test
  void everySettingHasAnOptionNamedAfterIt() {
    CommandLine cl = new CommandLine(new ControllerCommand());
    for (SettingsSchema.Setting s : SettingsSchema.ALL) {
      assertTrue(cl.getCommandSpec().findOption(ControllerCommand.option(s)) != null, s.name());
    }
    assertEquals(
        "--thr-delay", ControllerCommand.option(SettingsSchema.named("thrDelayMs").orElseThrow()));
    assertEquals(
        "--idle-timeout",
        ControllerCommand.option(SettingsSchema.named("idleTimeoutS").orElseThrow()));
    assertEquals(
        "--qomra-k", ControllerCommand.option(SettingsSchema.named("qomraK").orElseThrow()));
  }

  @Test
  void noOptionsIsTheDefaults() {
    assertEquals(ControlConfig.defaults(), parsed("-t", "compuserve").config());
  }

  @Test
  void optionsSetTheSettings() {
    ControlConfig c =
        parsed(
                "-t",
                "compuserve",
                "-a",
                "qomra",
                "--thr-delay",
                "120",
                "--alpha",
                "0.2",
                "--segment-routing",
                "--idle-timeout",
                "30",
                "--resolution",
                "720p",
                "--qomra-weights",
                "1,2,3,4")
            .config();
    assertEquals("qomra", c.algorithm());
    assertEquals(120.0, c.selection().thrDelayMs());
    assertEquals(0.2, c.selection().alpha());
    assertTrue(c.segmentRouting());
    assertEquals(30, c.idleTimeoutS());
    assertEquals(Resolution.P720, c.qomra().resolution());
    assertEquals(4.0, c.qomra().congestionWeight());
    assertEquals(false, parsed("-t", "x", "--segment-routing=false").config().segmentRouting());
  }

  @Test
  void badValuesNameTheOption() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> parsed("-t", "x", "--stats-interval", "0").config());
    assertEquals(
        "--stats-interval: 'statsIntervalS' must be an integer, 1 to 3600, got '0'",
        e.getMessage());
  }

  @Test
  void theTokenComesFromTheFilesFirstLine(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("token");
    Files.writeString(f, "  s3cret \nignored\n");
    assertEquals("s3cret", parsed("-t", "x", "--rest-token-file", f.toString()).token());
    Files.writeString(f, "\n");
    assertThrows(
        IllegalArgumentException.class,
        () -> parsed("-t", "x", "--rest-token-file", f.toString()).token());
  }

  @Test
  void withoutATopologyTheServersAreRequired() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> parsed().discovery());
    assertTrue(e.getMessage().startsWith("--servers is required without --topology"));
    TopologyBuilder.Options o =
        parsed("--servers", "10.0.1.1, 10.0.2.1", "--host-grouping", "per-address").discovery();
    assertEquals(Set.of("10.0.1.1", "10.0.2.1"), o.serverIps());
    assertEquals(TopologyBuilder.Grouping.PER_ADDRESS, o.grouping());
    assertEquals(1000.0, o.defaultCapacityMbps());
    assertEquals(TopologyBuilder.Grouping.ADDRESS_PLAN, parsed("-t", "x").discovery().grouping());
  }

  @Test
  void badDiscoveryOptionsNameTheOption() {
    assertEquals(
        "--servers: '10.0.1.300' is not an IPv4 address",
        assertThrows(
                IllegalArgumentException.class, () -> parsed("--servers", "10.0.1.300").discovery())
            .getMessage());
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> parsed("-t", "x", "--host-grouping", "mac").discovery())
            .getMessage()
            .startsWith("--host-grouping must be"));
    assertThrows(
        IllegalArgumentException.class,
        () -> parsed("-t", "x", "--default-link-capacity", "Infinity").discovery());
  }

  @Test
  void lldpIntervalAndLinkTimeout() {
    ControlConfig c = ControlConfig.defaults();
    StandaloneController.Settings s = parsed("-t", "x").controllerSettings(c);
    assertEquals(Duration.ofSeconds(5), s.lldpInterval());
    assertEquals(Duration.ofSeconds(15), s.linkTimeout(), "three intervals");
    s = parsed("-t", "x", "--lldp-interval", "2", "--link-timeout", "7").controllerSettings(c);
    assertEquals(Duration.ofSeconds(2), s.lldpInterval());
    assertEquals(Duration.ofSeconds(7), s.linkTimeout());
    assertThrows(
        IllegalArgumentException.class,
        () -> parsed("-t", "x", "--lldp-interval", "0").controllerSettings(c));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                parsed("-t", "x", "--lldp-interval", "5", "--link-timeout", "5")
                    .controllerSettings(c));
    assertTrue(e.getMessage().startsWith("--link-timeout must be more than --lldp-interval"));
  }
}
