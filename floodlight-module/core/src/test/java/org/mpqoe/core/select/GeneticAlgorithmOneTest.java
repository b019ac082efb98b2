package org.mpqoe.core.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jenetics.Genotype;
import io.jenetics.IntegerChromosome;
import io.jenetics.IntegerGene;
import io.jenetics.Phenotype;
import io.jenetics.engine.EvolutionResult;
import io.jenetics.util.ISeq;
import io.jenetics.util.RandomRegistry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The structure of the paper's Algorithm 1 ({@code ga}) against the tuned engine ({@code
 * ga-tuned}): what a generation is made of, how offspring are crossed and mutated, and that runs
 * reproduce.
 */
class GeneticAlgorithmOneTest {
  private static final GaConfig GA = GaConfig.DEFAULTS.withPopulation(60).withGenerations(12);

  /** A problem with enough candidates that the population stays diverse. */
  private static SelectionProblem problem() {
    for (long seed = 1; ; seed++) {
      SelectionProblem p = GeneticVersusExactPropertiesTest.instance(seed, 3);
      if (p.size() >= 10) {
        return p;
      }
    }
  }

  private static List<EvolutionResult<IntegerGene, Double>> generations(
      GeneticSelector ga, SelectionProblem p) {
    return ga.evolve(p, GeneticSelector.codec(p), s -> s.toList());
  }

  /** Members of {@code r}'s population made in an earlier generation: the survivors. */
  private static List<Phenotype<IntegerGene, Double>> survivors(
      EvolutionResult<IntegerGene, Double> r) {
    return r.population().stream().filter(pt -> pt.generation() < r.generation()).toList();
  }

  @Test
  void eachGenerationIsTheElitesPlusOffspring() {
    SelectionProblem p = problem();
    List<EvolutionResult<IntegerGene, Double>> run = generations(new GeneticSelector(GA), p);
    assertEquals(GA.generations(), run.size());
    for (int g = 1; g < run.size(); g++) {
      EvolutionResult<IntegerGene, Double> previous = run.get(g - 1);
      EvolutionResult<IntegerGene, Double> current = run.get(g);
      assertEquals(GA.population(), current.population().size());
      List<Phenotype<IntegerGene, Double>> kept = survivors(current);
      assertEquals(GA.elites(), kept.size(), "generation " + current.generation());
      // The survivors are the n_e best of the previous generation (Algorithm 3, lines 9-11).
      List<Double> best =
          previous.population().stream()
              .map(Phenotype::fitness)
              .sorted(Comparator.reverseOrder())
              .limit(GA.elites())
              .toList();
      assertEquals(
          best, kept.stream().map(Phenotype::fitness).sorted(Comparator.reverseOrder()).toList());
      // Every other member was crossed in this generation (Algorithm 1, lines 16-22).
      assertTrue(current.alterCount() >= GA.population() - GA.elites());
    }
  }

  @Test
  void theTunedEngineKeepsFortyPercentSurvivors() {
    SelectionProblem p = problem();
    List<EvolutionResult<IntegerGene, Double>> run =
        generations(new GeneticSelector(GA, GeneticSelector.Variant.TUNED), p);
    for (EvolutionResult<IntegerGene, Double> r : run.subList(1, run.size())) {
      assertTrue(survivors(r).size() >= GA.population() * 4 / 10, "generation " + r.generation());
    }
  }

  @Test
  void aGenerationIsReproducibleMemberByMember() {
    SelectionProblem p = problem();
    for (GeneticSelector.Variant v : GeneticSelector.Variant.values()) {
      GeneticSelector ga = new GeneticSelector(GA, v);
      List<List<Genotype<IntegerGene>>> first = new ArrayList<>();
      List<List<Genotype<IntegerGene>>> second = new ArrayList<>();
      generations(ga, p).forEach(r -> first.add(r.genotypes().asList()));
      generations(ga, p).forEach(r -> second.add(r.genotypes().asList()));
      assertEquals(first, second, v.name());
    }
  }

  private static ISeq<Phenotype<IntegerGene, Double>> population(int size, long seed) {
    return RandomRegistry.with(
        new SplittableRandom(seed),
        r ->
            IntStream.range(0, size)
                .mapToObj(
                    i ->
                        Phenotype.<IntegerGene, Double>of(
                            Genotype.of(IntegerChromosome.of(0, 10, 3)), 1))
                .collect(ISeq.toISeq()));
  }

  private static int changedGenes(Genotype<IntegerGene> a, Genotype<IntegerGene> b) {
    int changed = 0;
    for (int i = 0; i < a.chromosome().length(); i++) {
      if (a.chromosome().get(i).allele().intValue() != b.chromosome().get(i).allele()) {
        changed++;
      }
    }
    return changed;
  }

  @Test
  void aMutatedOffspringDiffersInExactlyOneGene() {
    ISeq<Phenotype<IntegerGene, Double>> pop = population(200, 1);
    var result =
        RandomRegistry.with(
            new SplittableRandom(2), r -> new ChromosomeMutator<Double>(1.0).alter(pop, 2));
    assertEquals(pop.size(), result.alterations());
    for (int i = 0; i < pop.size(); i++) {
      assertEquals(1, changedGenes(pop.get(i).genotype(), result.population().get(i).genotype()));
      assertEquals(2, result.population().get(i).generation());
    }
  }

  @Test
  void mutationPicksWholeChromosomesWithItsProbability() {
    ISeq<Phenotype<IntegerGene, Double>> pop = population(4000, 3);
    var result =
        RandomRegistry.with(
            new SplittableRandom(4), r -> new ChromosomeMutator<Double>(0.25).alter(pop, 2));
    int mutated = 0;
    for (int i = 0; i < pop.size(); i++) {
      Phenotype<IntegerGene, Double> before = pop.get(i);
      Phenotype<IntegerGene, Double> after = result.population().get(i);
      int changed = changedGenes(before.genotype(), after.genotype());
      assertTrue(changed <= 1, "at most one gene per offspring");
      if (changed == 1) {
        mutated++;
      } else {
        assertSame(before, after);
      }
    }
    assertEquals(mutated, result.alterations());
    // 0.25 of the offspring (Algorithm 1, line 25), not 1 - 0.75^3 = 0.58 as per-gene mutation.
    assertTrue(mutated > 900 && mutated < 1100, mutated + " of 4000 mutated");
    var none =
        RandomRegistry.with(
            new SplittableRandom(4), r -> new ChromosomeMutator<Double>(0).alter(pop, 2));
    assertEquals(0, none.alterations());
    assertEquals(pop, none.population());
  }

  @Test
  void crossoverPairsNeighboursAndSwapsOneSegment() {
    ISeq<Phenotype<IntegerGene, Double>> pop = population(101, 5);
    var result =
        RandomRegistry.with(
            new SplittableRandom(6),
            r -> new PairedTwoPointCrossover<IntegerGene, Double>().alter(pop, 7));
    assertEquals(pop.size(), result.alterations());
    int swapped = 0;
    for (int i = 0; i + 1 < pop.size(); i += 2) {
      IntegerChromosome a = (IntegerChromosome) pop.get(i).genotype().chromosome();
      IntegerChromosome b = (IntegerChromosome) pop.get(i + 1).genotype().chromosome();
      var x = result.population().get(i).genotype().chromosome();
      var y = result.population().get(i + 1).genotype().chromosome();
      // Gene by gene, the two offspring hold the two parents' genes, swapped on one segment.
      List<Boolean> swaps = new ArrayList<>();
      for (int k = 0; k < a.length(); k++) {
        boolean same =
            x.get(k).allele().equals(a.get(k).allele())
                && y.get(k).allele().equals(b.get(k).allele());
        boolean swap =
            x.get(k).allele().equals(b.get(k).allele())
                && y.get(k).allele().equals(a.get(k).allele());
        assertTrue(same || swap, "pair " + i + " gene " + k);
        swaps.add(swap && !same);
      }
      int first = swaps.indexOf(true);
      int last = swaps.lastIndexOf(true);
      if (first >= 0) {
        swapped++;
        assertEquals(-1, swaps.subList(first, last + 1).indexOf(false), "one segment: " + swaps);
      }
    }
    assertTrue(swapped > 25, swapped + " of 50 pairs exchanged genes");
    // Every member, the odd last one too, is an offspring of this generation.
    result.population().forEach(pt -> assertEquals(7, pt.generation()));
    assertNotEquals(pop, result.population());
  }
}
