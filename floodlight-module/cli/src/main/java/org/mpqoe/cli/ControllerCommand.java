package org.mpqoe.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import org.mpqoe.core.control.ControlConfig;
import org.mpqoe.core.control.MptcpControlPlane;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyLoader;
import org.mpqoe.openflow.RestServer;
import org.mpqoe.openflow.StandaloneController;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mpqoe controller}: the standalone OpenFlow 1.3 controller and its REST API, until SIGINT
 * or SIGTERM. One line per event on stdout; warnings and errors on stderr.
 */
@Command(
    name = "controller",
    mixinStandardHelpOptions = true,
    description = {
      "Run the standalone OpenFlow 1.3 controller (and its REST API under /mpqoe/) until"
          + " interrupted.",
      "Switches (Open vSwitch, Mininet with protocols=OpenFlow13) connect to --bind:--port."
    })
final class ControllerCommand implements Callable<Integer> {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

  @Option(
      names = {"-t", "--topology"},
      required = true,
      paramLabel = "NAME|FILE",
      description = "Embedded topology name or descriptor file.")
  String topology;

  @Option(
      names = {"-a", "--algorithm"},
      defaultValue = "ga",
      description =
          "One of: ga, exact, qomra, pd-bw, pd-delay, fd-bw, fd-delay, none (default:"
              + " ${DEFAULT-VALUE}).")
  String algorithm;

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
      names = "--stats-interval",
      defaultValue = "2",
      paramLabel = "SECONDS",
      description = "Port statistics polling period (default: ${DEFAULT-VALUE}).")
  int statsInterval;

  @Option(
      names = "--idle-timeout",
      defaultValue = "10",
      paramLabel = "SECONDS",
      description = "Idle timeout of subflow rules (default: ${DEFAULT-VALUE}).")
  int idleTimeout;

  @Option(
      names = "--segment-routing",
      description =
          "Install subflows as MPLS label stacks (segment routing; the switches must support"
              + " MPLS). Without it: per-hop rules.")
  boolean segmentRouting;

  @picocli.CommandLine.Mixin QomraOptions qomra;

  @Option(
      names = "--max-hops",
      defaultValue = "8",
      description = "Longest candidate path in hops (default: ${DEFAULT-VALUE}).")
  int maxHops;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    checkPort("--port", port);
    checkPort("--rest", rest);
    // slf4j-simple: short logger names, no thread names; must be set before the first logger.
    System.setProperty("org.slf4j.simpleLogger.showThreadName", "false");
    System.setProperty("org.slf4j.simpleLogger.showShortLogName", "true");
    System.setProperty("org.slf4j.simpleLogger.levelInBrackets", "true");

    Topology t = TopologyLoader.load(topology);
    ControlConfig config =
        ControlConfig.defaults()
            .withAlgorithm(algorithm)
            .withTimers(idleTimeout, statsInterval)
            .withRouting(maxHops, segmentRouting)
            .withQomra(qomra.config());
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
        new StandaloneController(
            plane,
            new StandaloneController.Settings(bind, port, Duration.ofSeconds(statsInterval)),
            events);
    RestServer restServer = rest == 0 ? null : new RestServer(plane.rest(), bind, rest);
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
            "controller: topology %s (%d switches, %d hosts), algorithm %s%s%s, OpenFlow 1.3 on"
                + " %s:%d, %s",
            t.name(),
            t.switches().size(),
            t.hosts().size(),
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
