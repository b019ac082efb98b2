package org.mpqoe.core.select;

import io.jenetics.Genotype;
import io.jenetics.IntegerChromosome;
import io.jenetics.IntegerGene;
import io.jenetics.engine.EvolutionResult;
import io.jenetics.util.RandomRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.mpqoe.core.path.Path;

/**
 * The GA paper's joint problem (eqs. 1-2): re-optimise a subset of clients at once, the other
 * clients' paths fixed. The genotype has one chromosome per client (its 1 x N path vector, so
 * crossover stays inside a client's subflows). A path chosen by several of the re-optimised clients
 * is shared among them: its term for each is abw_p / (fixed users + re-optimised users), eq. 2's
 * abw_p / sum_h x_{h,p}. The objective is the mean over clients of each client's eq. 7 fitness
 * (normalised with that client's own bounds, 0 when its paths fail the congestion check).
 *
 * <p>Each client's {@link SelectionProblem} must have been built with the users of the fixed
 * clients only.
 */
public final class JointGeneticSelector {
  private final GaConfig config;

  public JointGeneticSelector(GaConfig config) {
    this.config = config;
  }

  /** One selection per problem, in the same order. */
  public List<Selection> select(List<SelectionProblem> clients, long seed) {
    if (clients.isEmpty()) {
      return List.of();
    }
    Joint joint = new Joint(clients);
    List<IntegerChromosome> chromosomes = new ArrayList<>();
    for (SelectionProblem p : clients) {
      // An empty candidate list still gets a chromosome; its only value is 0 (unused).
      chromosomes.add(IntegerChromosome.of(0, p.size() + 1, p.maxPaths()));
    }
    Genotype<IntegerGene> template = Genotype.of(chromosomes);
    Genotype<IntegerGene> best =
        RandomRegistry.with(
            new SplittableRandom(seed),
            random ->
                GeneticSelector.engine(joint::fitness, template, config).stream()
                    .limit(config.generations())
                    .collect(EvolutionResult.toBestGenotype()));
    List<Selection> result = new ArrayList<>();
    for (int h = 0; h < clients.size(); h++) {
      SelectionProblem p = clients.get(h);
      result.add(p.selectionOf("ga-joint", GeneticSelector.decode(best.get(h))));
    }
    return result;
  }

  /** The joint objective of the best genotype found; for tests. */
  public double objective(List<SelectionProblem> clients, List<Selection> selections) {
    Joint joint = new Joint(clients);
    List<int[]> sets = new ArrayList<>();
    for (int h = 0; h < clients.size(); h++) {
      SelectionProblem p = clients.get(h);
      sets.add(
          selections.get(h).paths().stream().mapToInt(q -> p.candidates().indexOf(q)).toArray());
    }
    return joint.objective(sets);
  }

  /** Global path ids across the clients, so that shared paths are counted once each. */
  private static final class Joint {
    private final List<SelectionProblem> clients;
    private final int[][] global;
    private final int paths;

    Joint(List<SelectionProblem> clients) {
      this.clients = clients;
      Map<Path, Integer> ids = new HashMap<>();
      global = new int[clients.size()][];
      for (int h = 0; h < clients.size(); h++) {
        List<Path> cands = clients.get(h).candidates();
        global[h] = new int[cands.size()];
        for (int i = 0; i < cands.size(); i++) {
          global[h][i] = ids.computeIfAbsent(cands.get(i), q -> ids.size());
        }
      }
      paths = ids.size();
    }

    double fitness(Genotype<IntegerGene> g) {
      List<int[]> sets = new ArrayList<>(clients.size());
      for (int h = 0; h < clients.size(); h++) {
        sets.add(GeneticSelector.decode(g.get(h)));
      }
      return objective(sets);
    }

    double objective(List<int[]> sets) {
      int[] chosenBy = new int[paths];
      for (int h = 0; h < sets.size(); h++) {
        for (int i : sets.get(h)) {
          chosenBy[global[h][i]]++;
        }
      }
      double total = 0;
      for (int h = 0; h < sets.size(); h++) {
        SelectionProblem p = clients.get(h);
        int[] set = sets.get(h);
        if (set.length == 0 || !p.feasible(set, set.length)) {
          continue;
        }
        double xi = 0;
        for (int i : set) {
          xi += p.availableMbps(i) / (p.users(i) + chosenBy[global[h][i]]);
        }
        total += p.fitness(p.zeta(set, set.length), xi);
      }
      return total / sets.size();
    }
  }
}
