package org.mpqoe.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import org.mpqoe.core.control.ControlConfig;
import org.mpqoe.core.control.MptcpControlPlane;
import org.mpqoe.core.control.SettingsSchema;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyBuilder;
import org.mpqoe.core.topology.TopologyLoader;
import org.mpqoe.openflow.RestServer;
import org.mpqoe.openflow.StandaloneController;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mpqoe controller}: the standalone OpenFlow 1.3 controller and its REST API, until SIGINT
 * or SIGTERM. One line per event on stdout; warnings and errors on stderr. Every controller setting
 * is an option made from {@link SettingsSchema} (name in kebab case, unit suffix dropped: {@code
 * thrDelayMs} is {@code --thr-delay}, {@code defaultLinkCapacityMbps} {@code
 * --default-link-capacity}), with the schema's range, default and checks.
 */
@Command(
    name = "controller",
    mixinStandardHelpOptions = true,
    modelTransformer = ControllerCommand.SchemaOptions.class,
    description = {
      "Run the standalone OpenFlow 1.3 controller (and its REST API under /mpqoe/) until"
          + " interrupted.",
      "Switches (Open vSwitch, Mininet with protocols=OpenFlow13) connect to --bind:--port.",
      "REST writes need 'Authorization: Bearer <token>' when --bind is not a loopback address;"
          + " the token comes from --rest-token-file or the environment variable "
          + ControllerCommand.TOKEN_ENV
          + "."
    })
final class ControllerCommand implements Callable<Integer> {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

  /** The environment variable holding the REST token. */
  static final String TOKEN_ENV = "MPQOE_REST_TOKEN";

  @Option(
      names = {"-t", "--topology"},
      paramLabel = "NAME|FILE",
      description = {
        "Embedded topology name or descriptor file: names, capacities, delays and hosts laid over"
            + " the network that LLDP discovers, and checked against it (mismatches in the log and"
            + " in GET /mpqoe/topology).",
        "Without it the topology is the discovered network alone: link capacities from the ports'"
            + " speeds, delays from LLDP, hosts where their addresses are seen."
      })
  String topology;

  @Option(
      names = "--port",
      defaultValue = "6653",
      description = "OpenFlow listening port (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(
      names = "--rest",
      defaultValue = "8080",
      paramLabel = "PORT",
      description = "REST port, 0 disables the REST API (default: ${DEFAULT-VALUE}).")
  int rest;

  @Option(
      names = "--bind",
      defaultValue = "127.0.0.1",
      paramLabel = "ADDRESS",
      description = "Address both servers listen on (default: ${DEFAULT-VALUE}).")
  String bind;

  @Option(
      names = "--rest-token-file",
      paramLabel = "FILE",
      description =
          "File whose first line is the REST token (else the environment variable "
              + TOKEN_ENV
              + ").")
  Path restTokenFile;

  @Option(
      names = "--qomra-weights",
      split = ",",
      paramLabel = "D,L,C,G",
      description =
          "QoMRA: the four link-cost weights at once (delay, loss, criticality, congestion).")
  List<String> qomraWeights;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  /** The option of a setting: kebab case, unit suffix (S, Ms, Mbps) dropped. */
  static String option(SettingsSchema.Setting s) {
    List<String> words = new ArrayList<>(List.of(s.name().split("(?<=[a-z0-9])(?=[A-Z])")));
    String last = words.get(words.size() - 1);
    if (words.size() > 1 && List.of("S", "Ms", "Mbps").contains(last)) {
      words.remove(words.size() - 1);
    }
    return "--" + String.join("-", words).toLowerCase(Locale.ROOT);
  }

  /** Adds one option per schema setting (picocli calls this once per command model). */
  static final class SchemaOptions implements CommandLine.IModelTransformer {
    @Override
    public CommandSpec transform(CommandSpec spec) {
      for (SettingsSchema.Setting s : SettingsSchema.ALL) {
        List<String> names = new ArrayList<>(List.of(option(s)));
        if (s.name().equals("algorithm")) {
          names.add(0, "-a");
        } else if (s.name().equals("qomraResolution")) {
          names.add("--resolution");
        }
        OptionSpec.Builder b =
            OptionSpec.builder(names.toArray(String[]::new))
                .type(String.class)
                .paramLabel(
                    switch (s.type()) {
                      case BOOLEAN -> "true|false";
                      case IPV4_LIST -> "IP,...";
                      default -> "VALUE";
                    })
                .description(
                    s.meaning() + " (" + s.range() + "; default: " + s.defaultText() + ").");
        if (s.type() == SettingsSchema.Type.BOOLEAN) {
          b.arity("0..1").fallbackValue("true");
        }
        spec.addOption(b.build());
      }
      return spec;
    }
  }

  /** The settings given on the command line, checked by the schema, on the defaults. */
  ControlConfig config() {
    Map<SettingsSchema.Setting, Object> values = new LinkedHashMap<>();
    for (SettingsSchema.Setting s : SettingsSchema.ALL) {
      String text = spec.findOption(option(s)).getValue();
      if (text != null) {
        values.put(s, parse(option(s), s, text));
      }
    }
    if (qomraWeights != null) {
      if (qomraWeights.size() != 4) {
        throw new IllegalArgumentException(
            "--qomra-weights needs 4 numbers (delay,loss,criticality,congestion), got "
                + qomraWeights.size());
      }
      String[] names = {
        "qomraDelayWeight", "qomraLossWeight", "qomraCriticalityWeight", "qomraCongestionWeight"
      };
      for (int i = 0; i < 4; i++) {
        SettingsSchema.Setting s = SettingsSchema.named(names[i]).orElseThrow();
        values.put(s, parse("--qomra-weights", s, qomraWeights.get(i)));
      }
    }
    return SettingsSchema.apply(ControlConfig.defaults(), values);
  }

  private static Object parse(String option, SettingsSchema.Setting s, String text) {
    try {
      return s.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
    }
  }

  /**
   * The REST token: the file's first line, else the environment's; null for none. A file that
   * cannot be read or is not UTF-8 is a bad argument (one line, exit 2); one that others may read
   * gets a warning on {@code warn}.
   */
  String token(PrintWriter warn) {
    String t;
    if (restTokenFile != null) {
      List<String> lines;
      try {
        lines = Files.readAllLines(restTokenFile, StandardCharsets.UTF_8);
      } catch (CharacterCodingException e) {
        throw new IllegalArgumentException(
            "--rest-token-file: " + restTokenFile + " is not UTF-8 text", e);
      } catch (NoSuchFileException e) {
        throw new IllegalArgumentException("--rest-token-file: no file " + restTokenFile, e);
      } catch (IOException e) {
        throw new IllegalArgumentException(
            "--rest-token-file: cannot read " + restTokenFile + ": " + e.getMessage(), e);
      }
      t = lines.isEmpty() ? "" : lines.get(0).trim();
      if (t.isEmpty()) {
        throw new IllegalArgumentException("--rest-token-file: " + restTokenFile + " is empty");
      }
      if (othersMayRead(restTokenFile)) {
        warn.println(
            "mpqoe: warning: --rest-token-file "
                + restTokenFile
                + " is readable by its group or by others (chmod 600 it)");
      }
    } else {
      t = System.getenv(TOKEN_ENV);
    }
    return t == null || t.isBlank() ? null : t.trim();
  }

  /** Whether the file's POSIX permissions let its group or others read it (false elsewhere). */
  static boolean othersMayRead(Path file) {
    try {
      Set<PosixFilePermission> p = Files.getPosixFilePermissions(file);
      return p.contains(PosixFilePermission.GROUP_READ)
          || p.contains(PosixFilePermission.OTHERS_READ);
    } catch (UnsupportedOperationException | IOException e) {
      return false;
    }
  }

  /**
   * How the discovered network becomes a topology, from the settings; without {@code --topology}
   * the servers are required.
   */
  TopologyBuilder.Options discovery(ControlConfig config) {
    try {
      return config.discovery().topologyOptions(topology != null);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--servers: " + e.getMessage(), e);
    }
  }

  @Override
  public Integer call() throws Exception {
    checkPort("--port", port);
    checkPort("--rest", rest);
    // slf4j-simple: short logger names, no thread names; must be set before the first logger.
    System.setProperty("org.slf4j.simpleLogger.showThreadName", "false");
    System.setProperty("org.slf4j.simpleLogger.showShortLogName", "true");
    System.setProperty("org.slf4j.simpleLogger.levelInBrackets", "true");

    ControlConfig config = config();
    StandaloneController.Settings settings = StandaloneController.Settings.of(bind, port, config);
    String token = token(spec.commandLine().getErr());
    TopologyBuilder.Options discovery = discovery(config);
    Optional<Topology> overlay =
        topology == null ? Optional.empty() : Optional.of(TopologyLoader.load(topology));
    Topology t = overlay.orElse(Topology.empty(discovery.name()));
    MptcpControlPlane plane = new MptcpControlPlane(t, config);

    PrintWriter out = spec.commandLine().getOut();
    Consumer<String> events =
        line -> {
          synchronized (out) {
            out.println(LocalTime.now().format(TIME) + " " + line);
            out.flush();
          }
        };

    StandaloneController controller =
        new StandaloneController(plane, settings, overlay, discovery, events);
    RestServer restServer = rest == 0 ? null : new RestServer(plane.rest(), bind, rest, token);
    PrintWriter err = spec.commandLine().getErr();
    InetSocketAddress of;
    try {
      of = controller.start();
    } catch (Exception e) {
      controller.close();
      err.println("mpqoe: cannot listen for OpenFlow on " + bind + ":" + port + ": " + e);
      return 1;
    }
    String restLine = "REST disabled";
    if (restServer != null) {
      try {
        InetSocketAddress r = restServer.start();
        restLine = "REST on http://" + r.getHostString() + ":" + r.getPort() + "/mpqoe/";
        if (restServer.access().tokenRequired()) {
          restLine +=
              token == null
                  ? " (writes refused: not loopback and no token; see --help)"
                  : " (writes need the token)";
        }
      } catch (IOException | RuntimeException e) {
        controller.close();
        err.println("mpqoe: cannot listen for REST on " + bind + ":" + rest + ": " + e);
        return 1;
      }
    }

    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  events.accept("stopping");
                  if (restServer != null) {
                    restServer.close();
                  }
                  controller.close();
                  stopped.countDown();
                },
                "mpqoe-shutdown"));
    events.accept(
        String.format(
            "controller: topology %s, algorithm %s%s%s, OpenFlow 1.3 on %s:%d, %s",
            overlay.isPresent()
                ? String.format(
                    "%s (%d switches, %d hosts; checked against LLDP every %d s)",
                    t.name(),
                    t.switches().size(),
                    t.hosts().size(),
                    settings.lldpInterval().toSeconds())
                : String.format(
                    "discovered by LLDP every %d s (servers %s)",
                    settings.lldpInterval().toSeconds(), String.join(" ", discovery.serverIps())),
            config.algorithm(),
            config.algorithm().equals("qomra")
                ? String.format(
                    java.util.Locale.ROOT,
                    " (k %d, t %s s, %s = %s Mbit/s per subflow)",
                    config.qomra().k(),
                    config.qomra().intervalS(),
                    config.qomra().resolution().label(),
                    config.qomra().requiredMbps())
                : "",
            config.segmentRouting() ? ", segment routing" : "",
            of.getHostString(),
            of.getPort(),
            restLine));
    stopped.await();
    return 0;
  }

  private static void checkPort(String option, int value) {
    if (value < 0 || value > 65535) {
      throw new IllegalArgumentException(option + " must be 0..65535, got " + value);
    }
    if (option.equals("--port") && value == 0) {
      throw new IllegalArgumentException("--port must be 1..65535 (switches need a known port)");
    }
  }
}
