package org.mpqoe.core.select;

import io.jenetics.Chromosome;
import io.jenetics.EliteSelector;
import io.jenetics.Genotype;
import io.jenetics.IntegerChromosome;
import io.jenetics.IntegerGene;
import io.jenetics.MultiPointCrossover;
import io.jenetics.Mutator;
import io.jenetics.TournamentSelector;
import io.jenetics.TruncationSelector;
import io.jenetics.engine.Codec;
import io.jenetics.engine.Engine;
import io.jenetics.engine.EvolutionInit;
import io.jenetics.engine.EvolutionResult;
import io.jenetics.util.Factory;
import io.jenetics.util.ISeq;
import io.jenetics.util.RandomRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The genetic algorithm of Bikas &amp; Sayit, "Improving QoE with Genetic Algorithm-based Path
 * Selection for MPTCP". A chromosome is the client's 1 x N vector of path ids, 0 meaning "this
 * subflow is unused", so a client may get 1..N paths (a repeated id counts once, x is binary, eq.
 * 6); the {@link Codec} turns it into the distinct candidate indices, keeping a path only while its
 * first switch has a free interface (eq. 5 per switch, {@link SelectionProblem#keepWithinSlots}),
 * so every chromosome, whatever crossover and mutation made of it, decodes to a set within the
 * client's slots; for a client on one switch nothing is ever dropped. Fitness is {@link
 * SelectionProblem#fitness(int[], int)}: eq. 7 on normalised values, 0 when the congestion check of
 * eq. 3 fails (the paper's Algorithm 3, lines 5-7). The initial population is random and filtered
 * by the congestion check (Algorithm 2).
 *
 * <p>Two variants share all of this and differ in how a generation is made:
 *
 * <ul>
 *   <li>{@link Variant#ALGORITHM_1} ({@code ga}, the default), the paper's Algorithm 1: the next
 *       generation is the n_e best members (Algorithm 3, lines 9-11) plus population - n_e
 *       offspring; the offspring's parents are tournament winners (lines 6-14), crossed two by two
 *       at two points (lines 16-22, {@link PairedTwoPointCrossover}), and each offspring is mutated
 *       with probability mu as a whole chromosome (lines 23-26, {@link ChromosomeMutator}).
 *   <li>{@link Variant#TUNED} ({@code ga-tuned}), this project's first engine, whose free
 *       parameters were tuned on the optimality gap: Jenetics' defaults keep 40 % of each
 *       generation as survivors (n_e elites, the rest by tournament), each offspring is crossed
 *       with a random mate with the crossover probability, and mutation draws every gene with
 *       probability mu.
 * </ul>
 *
 * <p>Runs are reproducible: every random draw comes from a generator seeded with the problem's
 * seed, and evaluation runs on the calling thread.
 */
public final class GeneticSelector implements PathSelector {
  /** How a generation is made; see the class comment. */
  public enum Variant {
    ALGORITHM_1("ga"),
    TUNED("ga-tuned");

    private final String algorithm;

    Variant(String algorithm) {
      this.algorithm = algorithm;
    }

    /** The algorithm name in {@link Selectors}. */
    public String algorithm() {
      return algorithm;
    }
  }

  private final GaConfig config;
  private final Variant variant;

  public GeneticSelector(GaConfig config, Variant variant) {
    this.config = config;
    this.variant = variant;
  }

  /** The paper's Algorithm 1 with {@code config}. */
  public GeneticSelector(GaConfig config) {
    this(config, Variant.ALGORITHM_1);
  }

  public GeneticSelector() {
    this(GaConfig.DEFAULTS);
  }

  public GaConfig config() {
    return config;
  }

  public Variant variant() {
    return variant;
  }

  @Override
  public String name() {
    return variant.algorithm();
  }

  @Override
  public Selection select(SelectionProblem problem) {
    if (problem.size() == 0) {
      return Selection.none(name(), problem.client());
    }
    Codec<int[], IntegerGene> codec = codec(problem);
    int[] best = evolve(problem, codec, s -> s.collect(EvolutionResult.toBestResult(codec)));
    return problem.selectionOf(name(), best);
  }

  /**
   * Runs the configured number of generations on {@code problem} (which has candidates) with the
   * problem's seed and hands the stream of generations to {@code collect}.
   */
  <T> T evolve(
      SelectionProblem problem,
      Codec<int[], IntegerGene> codec,
      Function<Stream<EvolutionResult<IntegerGene, Double>>, T> collect) {
    return RandomRegistry.with(
        new SplittableRandom(problem.seed()),
        random -> {
          Function<int[], Double> fitness = ids -> problem.fitness(ids, ids.length);
          Engine<IntegerGene, Double> engine =
              variant == Variant.ALGORITHM_1
                  ? algorithm1(fitness, codec, config)
                  : tuned(fitness, codec, config);
          ISeq<Genotype<IntegerGene>> initial = initialPopulation(problem, codec);
          return collect.apply(
              engine.stream(EvolutionInit.of(initial, 1)).limit(config.generations()));
        });
  }

  /**
   * The chromosome of {@code problem}: N genes with values 0..c, 0 = unused subflow, i = candidate
   * i-1 (the upper bound is exclusive), decoded to distinct candidate indices within the client's
   * slots.
   */
  static Codec<int[], IntegerGene> codec(SelectionProblem problem) {
    return Codec.of(
        Genotype.of(IntegerChromosome.of(0, problem.size() + 1, problem.maxPaths())),
        g -> decode(problem, g.chromosome()));
  }

  /** {@link #decode(Chromosome)} with each path kept only while its switch has a free slot. */
  static int[] decode(SelectionProblem problem, Chromosome<IntegerGene> chromosome) {
    return problem.keepWithinSlots(decode(chromosome));
  }

  /**
   * Algorithm 1: n_e elites survive (Algorithm 3, lines 9-11), population - n_e offspring from
   * tournament winners crossed two by two at two points, each mutated with probability mu as a
   * whole chromosome; evaluation on the calling thread (for reproducibility).
   */
  static Engine<IntegerGene, Double> algorithm1(
      Function<int[], Double> fitness, Codec<int[], IntegerGene> codec, GaConfig config) {
    return Engine.builder(fitness, codec)
        .populationSize(config.population())
        .survivorsSize(config.elites())
        .survivorsSelector(new TruncationSelector<>())
        .offspringSelector(new TournamentSelector<>(config.tournamentSize()))
        .alterers(
            new PairedTwoPointCrossover<>(), new ChromosomeMutator<>(config.mutationProbability()))
        .executor(Runnable::run)
        .build();
  }

  /**
   * The tuned engine: Jenetics' default offspring fraction (0.6), survivors are n_e elites plus
   * tournament winners, two-point crossover of members with random mates, per-gene mutation.
   */
  static Engine<IntegerGene, Double> tuned(
      Function<int[], Double> fitness, Codec<int[], IntegerGene> codec, GaConfig config) {
    return Engine.builder(fitness, codec)
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
      SelectionProblem problem, Codec<int[], IntegerGene> codec) {
    Factory<Genotype<IntegerGene>> factory = codec.encoding();
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
    int[] ids = decode(problem, g.chromosome());
    return ids.length > 0 && problem.feasible(ids, ids.length);
  }

  /**
   * {@code g} with every gene whose path conflicts with an earlier kept path, or whose switch has
   * no free slot left, set to 0.
   */
  static Genotype<IntegerGene> repaired(SelectionProblem problem, Genotype<IntegerGene> g) {
    Chromosome<IntegerGene> c = g.chromosome();
    List<IntegerGene> genes = new ArrayList<>(c.length());
    int[] kept = new int[c.length()];
    int k = 0;
    for (int i = 0; i < c.length(); i++) {
      IntegerGene gene = c.get(i);
      int v = gene.allele();
      boolean keep = v != 0;
      boolean repeat = false;
      for (int j = 0; keep && j < k; j++) {
        repeat |= kept[j] == v - 1;
        keep = kept[j] == v - 1 || !problem.conflict(kept[j], v - 1);
      }
      if (keep && !repeat && !problem.slotFree(v - 1, kept, k)) {
        keep = false;
      }
      if (keep && repeat) {
        genes.add(gene);
      } else if (keep) {
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
