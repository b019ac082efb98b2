package org.mpqoe.core.select;

import io.jenetics.Chromosome;
import io.jenetics.EliteSelector;
import io.jenetics.Genotype;
import io.jenetics.IntegerChromosome;
import io.jenetics.IntegerGene;
import io.jenetics.MultiPointCrossover;
import io.jenetics.Mutator;
import io.jenetics.TournamentSelector;
import io.jenetics.engine.Engine;
import io.jenetics.engine.EvolutionInit;
import io.jenetics.engine.EvolutionResult;
import io.jenetics.util.Factory;
import io.jenetics.util.ISeq;
import io.jenetics.util.RandomRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The genetic algorithm of Bikas &amp; Sayit, "Improving QoE with Genetic Algorithm-based Path
 * Selection for MPTCP". A chromosome is the client's 1 x N vector of path ids, 0 meaning "this
 * subflow is unused", so a client may get 1..N paths (a repeated id counts once, x is binary, eq.
 * 6). Fitness is {@link SelectionProblem#fitness(int[], int)}: eq. 7 on normalised values, 0 when
 * the congestion check of eq. 3 fails (the paper's Algorithm 3, lines 5-7). The initial population
 * is random and filtered by the congestion check (Algorithm 2); tournament selection, two-point
 * crossover, per-gene mutation and n_e elites follow.
 *
 * <p>Runs are reproducible: every random draw comes from a generator seeded with the problem's
 * seed, and evaluation runs on the calling thread.
 */
public final class GeneticSelector implements PathSelector {
  private final GaConfig config;

  public GeneticSelector(GaConfig config) {
    this.config = config;
  }

  public GeneticSelector() {
    this(GaConfig.DEFAULTS);
  }

  public GaConfig config() {
    return config;
  }

  @Override
  public String name() {
    return "ga";
  }

  @Override
  public Selection select(SelectionProblem problem) {
    int c = problem.size();
    if (c == 0) {
      return Selection.none(name(), problem.client());
    }
    int n = problem.maxPaths();
    // Gene values 0..c: 0 = unused subflow, i = candidate i-1 (upper bound is exclusive).
    Factory<Genotype<IntegerGene>> factory = Genotype.of(IntegerChromosome.of(0, c + 1, n));
    int[] best =
        RandomRegistry.with(
            new SplittableRandom(problem.seed()),
            random -> {
              Engine<IntegerGene, Double> engine =
                  engine(g -> fitness(problem, g), factory, config);
              ISeq<Genotype<IntegerGene>> initial = initialPopulation(problem, factory);
              Genotype<IntegerGene> winner =
                  engine.stream(EvolutionInit.of(initial, 1))
                      .limit(config.generations())
                      .collect(EvolutionResult.toBestGenotype());
              return decode(winner.chromosome());
            });
    return problem.selectionOf(name(), best);
  }

  /**
   * The paper's engine: tournament selection with n_e elites kept, two-point crossover (within a
   * chromosome), per-gene mutation, evaluation on the calling thread (for reproducibility).
   */
  static Engine<IntegerGene, Double> engine(
      java.util.function.Function<Genotype<IntegerGene>, Double> fitness,
      Factory<Genotype<IntegerGene>> factory,
      GaConfig config) {
    return Engine.builder(fitness, factory)
        .populationSize(config.population())
        .selector(
            new EliteSelector<IntegerGene, Double>(
                config.elites(),
                new TournamentSelector<IntegerGene, Double>(config.tournamentSize())))
        .offspringSelector(new TournamentSelector<>(config.tournamentSize()))
        .alterers(
            new MultiPointCrossover<>(config.crossoverProbability(), 2),
            new Mutator<>(config.mutationProbability()))
        .executor(Runnable::run)
        .build();
  }

  /**
   * Algorithm 2: a random population filtered by the congestion check. A member that fails it is
   * drawn again up to {@link GaConfig#initialAttempts()} times, then repaired by dropping (setting
   * to 0) each subflow whose path conflicts with an earlier kept one, so every initial member is
   * feasible. Without the repair, instances where most path pairs share a congested link start with
   * an all-infeasible population and the search never leaves fitness 0.
   */
  private ISeq<Genotype<IntegerGene>> initialPopulation(
      SelectionProblem problem, Factory<Genotype<IntegerGene>> factory) {
    List<Genotype<IntegerGene>> members = new ArrayList<>(config.population());
    for (int i = 0; i < config.population(); i++) {
      Genotype<IntegerGene> g = factory.newInstance();
      for (int attempt = 1;
          attempt < config.initialAttempts() && !feasible(problem, g);
          attempt++) {
        g = factory.newInstance();
      }
      members.add(feasible(problem, g) ? g : repaired(problem, g));
    }
    return ISeq.of(members);
  }

  private static boolean feasible(SelectionProblem problem, Genotype<IntegerGene> g) {
    int[] ids = decode(g.chromosome());
    return ids.length > 0 && problem.feasible(ids, ids.length);
  }

  /** {@code g} with every gene whose path conflicts with an earlier kept path set to 0. */
  static Genotype<IntegerGene> repaired(SelectionProblem problem, Genotype<IntegerGene> g) {
    Chromosome<IntegerGene> c = g.chromosome();
    List<IntegerGene> genes = new ArrayList<>(c.length());
    int[] kept = new int[c.length()];
    int k = 0;
    for (int i = 0; i < c.length(); i++) {
      IntegerGene gene = c.get(i);
      int v = gene.allele();
      boolean keep = v != 0;
      for (int j = 0; keep && j < k; j++) {
        keep = kept[j] == v - 1 || !problem.conflict(kept[j], v - 1);
      }
      if (keep) {
        kept[k++] = v - 1;
        genes.add(gene);
      } else {
        genes.add(gene.newInstance(0));
      }
    }
    if (k == 0) {
      // Every gene was 0: give the first subflow the first candidate.
      genes.set(0, c.get(0).newInstance(1));
    }
    return Genotype.of(IntegerChromosome.of(genes));
  }

  private static double fitness(SelectionProblem problem, Genotype<IntegerGene> g) {
    int[] ids = decode(g.chromosome());
    return problem.fitness(ids, ids.length);
  }

  /** Distinct candidate indices of a chromosome (gene value - 1, zeros skipped), in gene order. */
  static int[] decode(Chromosome<IntegerGene> chromosome) {
    int[] ids = new int[chromosome.length()];
    int k = 0;
    outer:
    for (int i = 0; i < chromosome.length(); i++) {
      int v = chromosome.get(i).allele();
      if (v == 0) {
        continue;
      }
      for (int j = 0; j < k; j++) {
        if (ids[j] == v - 1) {
          continue outer;
        }
      }
      ids[k++] = v - 1;
    }
    return java.util.Arrays.copyOf(ids, k);
  }
}
