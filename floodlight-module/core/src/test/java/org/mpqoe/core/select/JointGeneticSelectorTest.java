package org.mpqoe.core.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.Graphs;
import org.mpqoe.core.path.CandidatePaths;
import org.mpqoe.core.path.LinkState;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.topology.Topology;

class JointGeneticSelectorTest {
  private static final GaConfig GA = GaConfig.DEFAULTS.withPopulation(40);

  // Two equal, disjoint routes from a to d.
  private static final Topology TWIN = Graphs.of("a-b 10 5", "b-d 10 5", "a-c 10 5", "c-d 10 5");

  private static SelectionProblem single(String client, int n) {
    List<Path> cands =
        new CandidatePaths(TWIN, 4).between(TWIN.requireSwitch("a"), TWIN.requireSwitch("d"));
    return new SelectionProblem(
        client, n, cands, LinkState.nominal(TWIN), p -> 0, SelectionConfig.DEFAULTS, 1);
  }

  @Test
  void clientsWithOneSubflowAreSpreadOverThePaths() {
    // Sharing a path halves each client's share (eq. 2): the joint optimum separates them.
    List<SelectionProblem> clients = List.of(single("c1", 1), single("c2", 1));
    List<Selection> s = new JointGeneticSelector(GA).select(clients, 3);
    assertEquals(1, s.get(0).paths().size());
    assertEquals(1, s.get(1).paths().size());
    assertNotEquals(s.get(0).paths().get(0), s.get(1).paths().get(0));
    assertEquals(
        0.5 + 0.5, new JointGeneticSelector(GA).objective(clients, s), 1e-9, "both at full share");
  }

  @Test
  void oneClientJointlyIsThePerJoinProblem() {
    SelectionProblem p = SelectionProblemTest.problem(3, 0.1, 0.9, 5);
    List<Selection> joint = new JointGeneticSelector(GA).select(List.of(p), 5);
    assertEquals(new ExactSelector().select(p).paths(), joint.get(0).paths());
  }

  @Test
  void reproducibleFromTheSeed() {
    List<SelectionProblem> clients = List.of(single("c1", 2), single("c2", 1), single("c3", 2));
    var js = new JointGeneticSelector(GA);
    assertEquals(js.select(clients, 9), js.select(clients, 9));
  }
}
