package org.mpqoe.core.select;

import io.jenetics.Alterer;
import io.jenetics.AltererResult;
import io.jenetics.Chromosome;
import io.jenetics.Genotype;
import io.jenetics.IntegerGene;
import io.jenetics.Phenotype;
import io.jenetics.util.MSeq;
import io.jenetics.util.RandomRegistry;
import io.jenetics.util.Seq;
import java.util.random.RandomGenerator;

/**
 * The GA paper's mutation (Bikas &amp; Sayit, Algorithm 1 lines 23-26): each offspring is mutated
 * with probability mu as a whole chromosome, and a mutation changes one gene to another path id
 * (section III.C, Fig. 3: "the second gene of the first offspring is mutated"). Jenetics' {@code
 * Mutator} instead draws every gene with the probability, so a 1 x 3 chromosome at 0.25 gets 0.75
 * changed genes on average and 58 % of the offspring at least one.
 *
 * <p>The gene is chosen uniformly and gets a value drawn uniformly among its other values, so a
 * mutated offspring always differs from its parent in exactly one gene. Draws come from {@link
 * RandomRegistry#random()}, so runs are reproducible under {@code RandomRegistry.with}.
 */
final class ChromosomeMutator<C extends Comparable<? super C>> implements Alterer<IntegerGene, C> {
  private final double probability;

  ChromosomeMutator(double probability) {
    if (!(probability >= 0 && probability <= 1)) {
      throw new IllegalArgumentException("mutation probability must be in [0, 1]");
    }
    this.probability = probability;
  }

  @Override
  public AltererResult<IntegerGene, C> alter(
      Seq<Phenotype<IntegerGene, C>> population, long generation) {
    RandomGenerator random = RandomRegistry.random();
    MSeq<Phenotype<IntegerGene, C>> out = MSeq.of(population);
    int mutated = 0;
    for (int i = 0; i < out.size(); i++) {
      if (random.nextDouble() < probability) {
        Genotype<IntegerGene> g = mutate(out.get(i).genotype(), random);
        if (g != null) {
          out.set(i, Phenotype.of(g, generation));
          mutated++;
        }
      }
    }
    return new AltererResult<>(out.toISeq(), mutated);
  }

  /** {@code g} with one gene changed, or null when no gene has a second value. */
  private static Genotype<IntegerGene> mutate(Genotype<IntegerGene> g, RandomGenerator random) {
    int k = random.nextInt(g.length());
    Chromosome<IntegerGene> chromosome = g.get(k);
    int at = random.nextInt(chromosome.length());
    IntegerGene gene = chromosome.get(at);
    int values = gene.max() - gene.min(); // the upper bound is exclusive
    if (values < 2) {
      return null;
    }
    int v = gene.min() + random.nextInt(values - 1);
    if (v >= gene.allele()) {
      v++;
    }
    MSeq<IntegerGene> genes = MSeq.of(chromosome);
    genes.set(at, gene.newInstance(v));
    MSeq<Chromosome<IntegerGene>> chromosomes = MSeq.of(g);
    chromosomes.set(k, chromosome.newInstance(genes.toISeq()));
    return Genotype.of(chromosomes);
  }
}
