package org.mpqoe.cli;

import java.io.PrintWriter;
import org.mpqoe.core.topology.TopologyException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code bin/mpqoe}: one launcher, one subcommand per job. */
@Command(
    name = "mpqoe",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "QoE-driven path selection for MPTCP video streaming.",
    subcommands = {
      SelectCommand.class,
      CompareCommand.class,
      ScenarioCommand.class,
      TopologyCommand.class,
      ControllerCommand.class,
      ContractCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {
  /** Exit code of bad arguments and of requests the topology cannot satisfy. */
  public static final int USAGE = 2;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required");
  }

  public static void main(String[] args) {
    System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /** Runs the launcher with the given streams and returns its exit code. */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cl = new CommandLine(new Main());
    cl.setOut(out);
    cl.setErr(err);
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.setParameterExceptionHandler(
        (ex, a) -> {
          err.println("mpqoe: " + ex.getMessage() + " (see 'mpqoe help')");
          return USAGE;
        });
    cl.setExecutionExceptionHandler(
        (ex, line, parsed) -> {
          if (ex instanceof TopologyException || ex instanceof IllegalArgumentException) {
            err.println("mpqoe: " + ex.getMessage());
            return USAGE;
          }
          throw ex;
        });
    return cl.execute(args);
  }

  /** Version from the jar manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {"mpqoe " + (v == null ? "development build" : v)};
    }
  }
}
