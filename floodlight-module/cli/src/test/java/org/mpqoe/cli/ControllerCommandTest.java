package org.mpqoe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
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

  private static String token(Path f, StringWriter warnings) {
    return parsed("-t", "x", "--rest-token-file", f.toString())
        .token(new PrintWriter(warnings, true));
  }

  @Test
  void theTokenComesFromTheFilesFirstLine(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("token");
    Files.writeString(f, "  s3cret \nignored\n");
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
    StringWriter warnings = new StringWriter();
    assertEquals("s3cret", token(f, warnings));
    assertEquals("", warnings.toString());
    Files.writeString(f, "\n");
    assertThrows(IllegalArgumentException.class, () -> token(f, new StringWriter()));
  }

  @Test
  void anUnreadableTokenFileIsOneLineAndAReadableOneIsWarnedAbout(@TempDir Path dir)
      throws Exception {
    Path f = dir.resolve("token");
    String missing =
        assertThrows(IllegalArgumentException.class, () -> token(f, new StringWriter()))
            .getMessage();
    assertEquals("--rest-token-file: no file " + f, missing);
    Files.write(f, new byte[] {'s', (byte) 0xff, (byte) 0xfe, '\n'});
    String binary =
        assertThrows(IllegalArgumentException.class, () -> token(f, new StringWriter()))
            .getMessage();
    assertEquals("--rest-token-file: " + f + " is not UTF-8 text", binary);
    Files.writeString(f, "s3cret\n");
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
    StringWriter warnings = new StringWriter();
    assertEquals("s3cret", token(f, warnings));
    assertTrue(
        warnings.toString().contains("readable by its group or by others"), warnings.toString());
    assertTrue(!warnings.toString().contains("s3cret"), "the token is never printed");
  }

  @Test
  void withoutATopologyTheServersAreRequired() {
    ControllerCommand none = parsed();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> none.discovery(none.config()));
    assertTrue(
        e.getMessage().startsWith("--servers: 'servers' is required without a topology"),
        e.getMessage());
    ControllerCommand two =
        parsed(
            "--servers",
            "10.0.2.1, 10.0.1.1",
            "--host-grouping",
            "per-address",
            "--default-link-capacity",
            "100");
    TopologyBuilder.Options o = two.discovery(two.config());
    assertEquals(Set.of("10.0.1.1", "10.0.2.1"), o.serverIps());
    assertEquals(TopologyBuilder.Grouping.PER_ADDRESS, o.grouping());
    assertEquals(100.0, o.defaultCapacityMbps());
    assertEquals(List.of("10.0.1.1", "10.0.2.1"), two.config().discovery().servers());
    ControllerCommand descriptor = parsed("-t", "x");
    assertEquals(
        TopologyBuilder.Grouping.ADDRESS_PLAN,
        descriptor.discovery(descriptor.config()).grouping());
  }

  @Test
  void discoveryOptionsKeepTheirNames() {
    assertEquals(
        "--default-link-capacity",
        ControllerCommand.option(SettingsSchema.named("defaultLinkCapacityMbps").orElseThrow()));
    assertEquals(
        "--lldp-interval",
        ControllerCommand.option(SettingsSchema.named("lldpIntervalS").orElseThrow()));
    assertEquals(
        "--link-timeout",
        ControllerCommand.option(SettingsSchema.named("linkTimeoutS").orElseThrow()));
    assertEquals(
        "--host-grouping",
        ControllerCommand.option(SettingsSchema.named("hostGrouping").orElseThrow()));
    assertEquals(
        "--servers", ControllerCommand.option(SettingsSchema.named("servers").orElseThrow()));
  }

  @Test
  void badDiscoveryOptionsNameTheOption() {
    assertEquals(
        "--servers: 'servers' must be IPv4 addresses, comma-separated, got '10.0.1.300'",
        error("--servers", "10.0.1.1,10.0.1.300"));
    assertEquals(
        "--host-grouping: 'hostGrouping' must be one of address-plan, per-address, got 'mac'",
        error("-t", "x", "--host-grouping", "mac"));
    assertEquals(
        "--default-link-capacity: 'defaultLinkCapacityMbps' must be a finite number, above 0, at"
            + " most 1000000, got 'Infinity'",
        error("-t", "x", "--default-link-capacity", "Infinity"));
  }

  private static String error(String... args) {
    return assertThrows(IllegalArgumentException.class, () -> parsed(args).config()).getMessage();
  }

  @Test
  void lldpIntervalAndLinkTimeout() {
    StandaloneController.Settings s =
        StandaloneController.Settings.of("127.0.0.1", 6653, parsed("-t", "x").config());
    assertEquals(Duration.ofSeconds(5), s.lldpInterval());
    assertEquals(Duration.ofSeconds(15), s.linkTimeout(), "three intervals");
    s =
        StandaloneController.Settings.of(
            "127.0.0.1", 6653, parsed("-t", "x", "--lldp-interval", "7").config());
    assertEquals(Duration.ofSeconds(21), s.linkTimeout(), "three of the given interval");
    s =
        StandaloneController.Settings.of(
            "127.0.0.1",
            6653,
            parsed("-t", "x", "--lldp-interval", "2", "--link-timeout", "7").config());
    assertEquals(Duration.ofSeconds(2), s.lldpInterval());
    assertEquals(Duration.ofSeconds(7), s.linkTimeout());
    assertEquals(
        "--lldp-interval: 'lldpIntervalS' must be an integer, 1 to 60, got '0'",
        error("-t", "x", "--lldp-interval", "0"));
    assertEquals(
        "'linkTimeoutS' (5 s) must be longer than 'lldpIntervalS' (5 s)",
        error("-t", "x", "--lldp-interval", "5", "--link-timeout", "5"));
  }
}
