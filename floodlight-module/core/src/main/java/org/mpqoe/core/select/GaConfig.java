package org.mpqoe.core.select;

/**
 * The genetic algorithm's parameters (Bikas &amp; Sayit), for both variants of {@link
 * GeneticSelector}. Population, generations and mutation follow the paper (section IV.A.1 and the
 * population study of section IV.B); the others are this project's defaults where the paper is
 * silent.
 *
 * @param population population size (paper: 28 Custom, 150 CompuServe, 300 Jellyfish)
 * @param generations generations per join (paper: 30)
 * @param mutationProbability mu (paper: 0.25). {@code ga}: the probability that an offspring is
 *     mutated, as a whole chromosome (Algorithm 1, lines 23-26); {@code ga-tuned}: per gene
 * @param crossoverProbability {@code ga-tuned} only: the probability that a member is crossed with
 *     a random mate (our default 0.8). {@code ga} crosses every pair of tournament winners
 *     (Algorithm 1, lines 16-22) and has no such parameter
 * @param elites n_e: best members copied unchanged to the next generation (Algorithm 3, which
 *     leaves the number open; 1 as in the authors' framework,
 *     GeneticAlgorithm/GeneticAlgorithm.java)
 * @param tournamentSize tournament size of the parent selection (Algorithm 1 lines 8-14 compare two
 *     members: 2)
 * @param initialAttempts Algorithm 2: how often a random member that fails the congestion check is
 *     redrawn before it is repaired
 */
public record GaConfig(
    int population,
    int generations,
    double mutationProbability,
    double crossoverProbability,
    int elites,
    int tournamentSize,
    int initialAttempts) {

  /** Population 150 (the paper's CompuServe setting) and the defaults above. */
  public static final GaConfig DEFAULTS = new GaConfig(150, 30, 0.25, 0.8, 1, 2, 10);

  public GaConfig {
    if (population < 2) {
      throw new IllegalArgumentException("GA population must be at least 2");
    }
    if (generations < 1) {
      throw new IllegalArgumentException("GA generations must be at least 1");
    }
    if (!(mutationProbability >= 0 && mutationProbability <= 1)
        || !(crossoverProbability >= 0 && crossoverProbability <= 1)) {
      throw new IllegalArgumentException("GA probabilities must be in [0, 1]");
    }
    if (elites < 0 || elites >= population) {
      throw new IllegalArgumentException("GA elites must be in [0, population)");
    }
    if (tournamentSize < 2) {
      throw new IllegalArgumentException("GA tournament size must be at least 2");
    }
    if (initialAttempts < 1) {
      throw new IllegalArgumentException("GA initial attempts must be at least 1");
    }
  }

  public GaConfig withPopulation(int newPopulation) {
    return new GaConfig(
        newPopulation,
        generations,
        mutationProbability,
        crossoverProbability,
        Math.min(elites, newPopulation - 1),
        tournamentSize,
        initialAttempts);
  }

  public GaConfig withGenerations(int newGenerations) {
    return new GaConfig(
        population,
        newGenerations,
        mutationProbability,
        crossoverProbability,
        elites,
        tournamentSize,
        initialAttempts);
  }
}
