package org.mpqoe.core.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.select.GaConfig;
import org.mpqoe.core.select.GeneticSelector;
import org.mpqoe.core.select.Selection;
import org.mpqoe.core.topology.TopologyLoader;

class JoinSimulationTest {

  @Test
  void eachJoinSeesTheLoadAndUsersOfTheClientsBeforeIt() {
    Scenario s =
        ScenarioGenerator.generate(
            TopologyLoader.load("custom12"), 10, 3, 5, ScenarioGenerator.LinkSource.AUTO);
    var settings = JoinSimulation.Settings.DEFAULTS;
    var r =
        JoinSimulation.run(s, new GeneticSelector(GaConfig.DEFAULTS.withPopulation(28)), settings);
    int links = s.topology().links().size();
    double[] expected = new double[links];
    Map<Path, Integer> users = new HashMap<>();
    for (JoinSimulation.Join j : r.joins()) {
      for (int l = 0; l < links; l++) {
        assertEquals(expected[l], j.state().loadMbps(l), 1e-9, "load on link " + l);
      }
      for (int i = 0; i < j.problem().size(); i++) {
        assertEquals(users.getOrDefault(j.problem().candidates().get(i), 0), j.problem().users(i));
      }
      Selection sel = j.selection();
      for (Path p : sel.distinctPaths()) {
        users.merge(p, 1, Integer::sum);
        for (int l : p.links()) {
          expected[l] += settings.demandMbps() / sel.distinctPaths().size();
        }
      }
    }
    for (int l = 0; l < links; l++) {
      assertEquals(expected[l], r.after().loadMbps(l), 1e-9);
    }
  }
}
