package org.mpqoe.core.scenario;

import java.util.ArrayList;
import java.util.List;
import org.mpqoe.core.path.CandidatePaths;
import org.mpqoe.core.path.LinkState;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.select.ClientAssignments;
import org.mpqoe.core.select.PathSelector;
import org.mpqoe.core.select.Selection;
import org.mpqoe.core.select.SelectionConfig;
import org.mpqoe.core.select.SelectionProblem;
import org.mpqoe.core.select.StatefulSelector;

/**
 * Replays a scenario's joins in order, as the controller would meet them: each client's paths are
 * chosen with the paths of the clients before it fixed; then its demand is spread evenly over its
 * paths as link load and each of its paths gains one user (|H_p| of eq. 9, kept in {@link
 * ClientAssignments} as the controller keeps it). A {@link StatefulSelector} (QoMRA) is told each
 * join's time; nobody leaves, so it releases nothing.
 */
public final class JoinSimulation {
  /** Settings of a run that are not the selector's. */
  public record Settings(SelectionConfig selection, int maxHops, double demandMbps) {
    /** Hop bound 8; demand 2.6 Mbit/s, the top bitrate of the GA paper's DASH content. */
    public static final Settings DEFAULTS = new Settings(SelectionConfig.DEFAULTS, 8, 2.6);

    public Settings {
      if (maxHops < 1) {
        throw new IllegalArgumentException("the hop bound must be at least 1");
      }
      if (!(demandMbps >= 0)) {
        throw new IllegalArgumentException("the demand must be >= 0");
      }
    }
  }

  /**
   * One join's outcome.
   *
   * @param candidates simple paths within the hop bound
   * @param admissible of those, paths within thr_delay
   * @param nanos time to build the problem and select, in ns
   * @param state the link state the client met
   * @param problem the problem the selector was given
   */
  public record Join(
      Scenario.Client client,
      Selection selection,
      int candidates,
      int admissible,
      long nanos,
      LinkState state,
      SelectionProblem problem) {}

  /** Every join of a run and the link state after the last. */
  public record Result(Scenario scenario, String algorithm, List<Join> joins, LinkState after) {}

  private JoinSimulation() {}

  public static Result run(Scenario scenario, PathSelector selector, Settings settings) {
    CandidatePaths paths = new CandidatePaths(scenario.topology(), settings.maxHops());
    LinkState state = scenario.links();
    ClientAssignments assignments = new ClientAssignments();
    List<Join> joins = new ArrayList<>();
    int index = 0;
    for (Scenario.Client client : scenario.clients()) {
      long start = System.nanoTime();
      List<Path> candidates = paths.fromInterfaces(client.host(), client.server().firstHop());
      if (selector instanceof StatefulSelector stateful) {
        stateful.clock(client.joinTimeS());
      }
      SelectionProblem problem =
          new SelectionProblem(
              client.host().name(),
              client.server().name(),
              client.host().attachmentIndices(),
              candidates,
              state,
              assignments::users,
              settings.selection(),
              joinSeed(scenario.seed(), index++));
      Selection selection = selector.select(problem);
      long nanos = System.nanoTime() - start;
      joins.add(
          new Join(client, selection, candidates.size(), problem.size(), nanos, state, problem));
      assignments.assign(client.host(), client.server(), selection);
      List<Path> used = selection.distinctPaths();
      for (Path p : used) {
        state = state.withAddedLoad(p, settings.demandMbps() / used.size());
      }
    }
    return new Result(scenario, selector.name(), joins, state);
  }

  /** The seed of the i-th join of a scenario: distinct per join, fixed by the scenario seed. */
  public static long joinSeed(long scenarioSeed, int joinIndex) {
    return scenarioSeed * 0x9E3779B97F4A7C15L + joinIndex;
  }
}
