package org.mpqoe.core.select;

import io.jenetics.Alterer;
import io.jenetics.AltererResult;
import io.jenetics.Chromosome;
import io.jenetics.Gene;
import io.jenetics.Genotype;
import io.jenetics.MultiPointCrossover;
import io.jenetics.Phenotype;
import io.jenetics.util.MSeq;
import io.jenetics.util.RandomRegistry;
import io.jenetics.util.Seq;
import java.util.random.RandomGenerator;

/**
 * The GA paper's crossover (Bikas &amp; Sayit, Algorithm 1 lines 16-22, Fig. 2): the tournament
 * winners are taken two by two and every pair is crossed at two points, giving two offspring.
 * Jenetics' own {@code Crossover} differs: it picks each member with a probability and crosses it
 * with a randomly drawn mate, so some members are crossed twice and others not at all. The
 * two-point exchange itself is Jenetics' {@link MultiPointCrossover} with two points.
 *
 * <p>The offspring selector draws the winners independently, so consecutive members are a random
 * pairing. With an odd number of members the last one is crossed with a randomly drawn other and
 * only its own offspring is kept (Algorithm 1 stops once the population is full). Every member
 * becomes a new phenotype of this generation, also when the two parents were equal.
 */
final class PairedTwoPointCrossover<G extends Gene<?, G>, C extends Comparable<? super C>>
    implements Alterer<G, C> {
  private final TwoPoint<G, C> twoPoint = new TwoPoint<>();

  @Override
  public AltererResult<G, C> alter(Seq<Phenotype<G, C>> population, long generation) {
    int n = population.size();
    MSeq<Phenotype<G, C>> out = MSeq.of(population);
    if (n < 2) {
      return new AltererResult<>(out.toISeq(), 0);
    }
    RandomGenerator random = RandomRegistry.random();
    for (int i = 0; i < n; i += 2) {
      boolean pair = i + 1 < n;
      int j = pair ? i + 1 : (i + 1 + random.nextInt(n - 1)) % n;
      Genotype<G> a = population.get(i).genotype();
      Genotype<G> b = population.get(j).genotype();
      int k = random.nextInt(Math.min(a.length(), b.length()));
      MSeq<G> left = MSeq.of(a.get(k));
      MSeq<G> right = MSeq.of(b.get(k));
      twoPoint.cross(left, right);
      out.set(i, Phenotype.of(replaced(a, k, left), generation));
      if (pair) {
        out.set(j, Phenotype.of(replaced(b, k, right), generation));
      }
    }
    return new AltererResult<>(out.toISeq(), n);
  }

  private static <G extends Gene<?, G>> Genotype<G> replaced(Genotype<G> g, int k, MSeq<G> genes) {
    MSeq<Chromosome<G>> chromosomes = MSeq.of(g);
    chromosomes.set(k, g.get(k).newInstance(genes.toISeq()));
    return Genotype.of(chromosomes);
  }

  /** Jenetics' two-point exchange of two gene sequences, in place. */
  private static final class TwoPoint<G extends Gene<?, G>, C extends Comparable<? super C>>
      extends MultiPointCrossover<G, C> {
    TwoPoint() {
      super(1.0, 2);
    }

    void cross(MSeq<G> left, MSeq<G> right) {
      crossover(left, right);
    }
  }
}
