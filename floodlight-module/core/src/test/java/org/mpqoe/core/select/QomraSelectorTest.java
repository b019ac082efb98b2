package org.mpqoe.core.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.path.CandidatePaths;
import org.mpqoe.core.path.LinkState;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.topology.SwitchNode;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyLoader;

/** QoMRA on the paper's data-centre topology: admission, subflow count, store, criticality. */
class QomraSelectorTest {
  static final Topology DC = TopologyLoader.load("qomra-dc");
  static final CandidatePaths PATHS = new CandidatePaths(DC, 8);

  static SwitchNode sw(String name) {
    return DC.switches().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
  }

  static SelectionProblem join(String client, String at, String server, String to, LinkState s) {
    return new SelectionProblem(
        client, server, 3, PATHS.between(sw(at), sw(to)), s, p -> 0, SelectionConfig.DEFAULTS, 1);
  }

  static SelectionProblem join(String client, String at, LinkState s) {
    return join(client, at, "srv1", "c1", s);
  }

  static void assertWithinCapacity(AdmissionLedger ledger, LinkState state) {
    double[] sum = new double[state.size()];
    ledger
        .flows()
        .values()
        .forEach(
            list ->
                list.forEach(
                    r -> {
                      for (int l : r.path().links()) {
                        sum[l] += r.rateMbps();
                      }
                    }));
    for (int l = 0; l < state.size(); l++) {
      assertEquals(sum[l], ledger.reservedMbps(l), 1e-6, "books add up on link " + l);
      assertTrue(
          ledger.reservedMbps(l) <= state.capacityMbps(l) + 1e-9,
          "link " + l + ": " + ledger.reservedMbps(l) + " > " + state.capacityMbps(l));
    }
  }

  /**
   * Many clients join (random edge switch, server, resolution, N) and some leave, on random link
   * capacities; after every step no link carries more reserved subflow rate than its capacity.
   */
  @Property(tries = 200)
  void admissionNeverExceedsALinksCapacity(@ForAll long seed) {
    Random r = new Random(seed);
    int n = DC.links().size();
    double[] cap = new double[n];
    double[] delay = new double[n];
    double[] load = new double[n];
    for (int l = 0; l < n; l++) {
      cap[l] = 0.3 + r.nextDouble() * 6;
      delay[l] = r.nextDouble() * 10;
      load[l] = r.nextInt(4) == 0 ? r.nextDouble() * cap[l] : 0;
    }
    LinkState state = new LinkState(cap, load, delay);
    QomraBooks books = new QomraBooks();
    List<String> live = new ArrayList<>();
    Map<String, List<Path>> paths = new HashMap<>();
    int joins = 20 + r.nextInt(40);
    for (int i = 0; i < joins; i++) {
      Resolution res = Resolution.values()[r.nextInt(Resolution.values().length)];
      QomraSelector q =
          new QomraSelector(
              QomraConfig.DEFAULTS.withResolution(res).withK(1 + r.nextInt(6)),
              new QomraSelector.Context(books, l -> 1, p -> List.of()));
      q.clock(i * 4.0);
      if (!live.isEmpty() && r.nextInt(4) == 0) {
        String gone = live.remove(r.nextInt(live.size()));
        if (r.nextBoolean()) {
          q.flowEnded(gone);
        } else {
          paths.get(gone).forEach(p -> q.subflowEnded(gone, p));
        }
      }
      String client = "h" + i;
      String server = r.nextBoolean() ? "srv1" : "srv2";
      String edge = "e" + (1 + r.nextInt(8));
      SelectionProblem p =
          new SelectionProblem(
              client,
              server,
              1 + r.nextInt(3),
              PATHS.between(sw(edge), sw(server.equals("srv1") ? "c1" : "c2")),
              state,
              x -> 0,
              SelectionConfig.DEFAULTS,
              i);
      Selection s = q.select(p);
      assertTrue(s.paths().size() <= p.maxPaths());
      assertEquals(s.paths().size(), books.ledger().of(p.flow()).size(), "one booking a subflow");
      live.add(p.flow());
      paths.put(p.flow(), s.paths());
      assertWithinCapacity(books.ledger(), state);
    }
  }

  @Test
  void subflowsDropWhenCapacityRunsOutAndRiseWhenItFrees() {
    LinkState state = LinkState.nominal(DC);
    QomraSelector q = new QomraSelector();
    // e1's two uplinks carry 2 Mbit/s each: 4 subflows of 480p (1 Mbit/s) in all.
    int first = q.select(join("h1", "e1", state)).paths().size();
    int second = q.select(join("h2", "e1", state)).paths().size();
    int third = q.select(join("h3", "e1", state)).paths().size();
    assertEquals(3, first);
    assertEquals(1, second);
    assertEquals(0, third, "e1's uplinks are full");
    assertWithinCapacity(q.books().ledger(), state);
    q.flowEnded(SelectionProblem.flowKey("h1", "srv1"));
    int afterRelease = q.select(join("h4", "e1", state)).paths().size();
    assertEquals(3, afterRelease, "h1's three subflows gave their capacity back");
    // One subflow of h2 ends: one more subflow fits for the next client.
    q.flowEnded(SelectionProblem.flowKey("h4", "srv1"));
    q.select(join("h5", "e1", state));
    q.select(join("h6", "e1", state));
    Path h2 = q.books().ledger().of(SelectionProblem.flowKey("h2", "srv1")).get(0).path();
    assertEquals(0, q.select(join("h7", "e1", state)).paths().size());
    q.subflowEnded(SelectionProblem.flowKey("h2", "srv1"), h2);
    assertEquals(1, q.select(join("h8", "e1", state)).paths().size());
  }

  @Test
  void aHigherResolutionAdmitsFewerSubflows() {
    LinkState state = LinkState.nominal(DC);
    // 720p needs 2.5 Mbit/s per subflow: more than an aggregation-edge link's 2 Mbit/s.
    QomraSelector hd = new QomraSelector(QomraConfig.DEFAULTS.withResolution(Resolution.P720));
    assertTrue(hd.select(join("h1", "e1", state)).isEmpty());
    QomraSelector low = new QomraSelector(QomraConfig.DEFAULTS.withResolution(Resolution.P240));
    assertEquals(3, low.select(join("h1", "e1", state)).paths().size());
  }

  @Test
  void theStoreAnswersARepeatedFlowWithoutRecomputation() {
    LinkState state = LinkState.nominal(DC);
    AtomicInteger labelCalls = new AtomicInteger();
    QomraBooks books = new QomraBooks();
    QomraSelector q =
        new QomraSelector(
            QomraConfig.DEFAULTS,
            new QomraSelector.Context(
                books,
                l -> 1,
                p -> {
                  labelCalls.incrementAndGet();
                  return List.of(16000 + p.destination());
                }));
    Selection first = q.select(join("h1", "e1", state));
    assertEquals(1, books.computations());
    assertEquals(3, labelCalls.get(), "one label list per accepted path");
    ConnectionStore.Entry e = books.store().get("h1 -> srv1");
    assertEquals(first.distinctPaths().size(), e.paths().size());
    assertEquals(List.of(16000), e.labels().get(0));
    assertTrue(e.complete());
    q.flowEnded("h1 -> srv1");
    Selection again = q.select(join("h1", "e1", state));
    assertEquals(1, books.computations(), "answered from the store");
    assertEquals(1, books.storeHits());
    assertEquals(3, labelCalls.get(), "no label encoding either");
    assertEquals(first.paths(), again.paths());
    assertEquals(3, books.ledger().of("h1 -> srv1").size(), "and admitted again");
    // Another flow of the same client (other server) is not the same connection.
    q.select(join("h1", "e1", "srv2", "c2", state));
    assertEquals(2, books.computations());
  }

  @Test
  void aStoredAnswerThatNoLongerFitsOrWasCutShortIsRecomputed() {
    LinkState state = LinkState.nominal(DC);
    QomraSelector q = new QomraSelector();
    q.select(join("h1", "e1", state));
    // h2 is cut short by admission (1 of 3): its entry is incomplete.
    assertEquals(1, q.select(join("h2", "e1", state)).paths().size());
    assertTrue(!q.books().store().get("h2 -> srv1").complete());
    q.flowEnded("h1 -> srv1");
    q.flowEnded("h2 -> srv1");
    long before = q.books().computations();
    assertEquals(3, q.select(join("h2", "e1", state)).paths().size(), "capacity freed");
    assertEquals(before + 1, q.books().computations());
    // h1's stored paths no longer fit all together: computed again, not reused.
    q.select(join("h1", "e1", state));
    assertEquals(before + 2, q.books().computations());
    assertEquals(0, q.books().storeHits());
  }

  @Test
  void criticalitySteersSubflowsAwayFromLinksOtherDemandsNeed() {
    // Two parallel two-hop routes a-b-d and a-c-d; many recorded demands (b, d) make b-d critical.
    Topology t =
        TopologyLoader.parse(
            """
            {"schema":1,"name":"fork","description":"two routes",
             "switches":[{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d"}],
             "links":[{"a":"a","b":"b","capacityMbps":10,"delayMs":1},
                      {"a":"b","b":"d","capacityMbps":10,"delayMs":1},
                      {"a":"a","b":"c","capacityMbps":10,"delayMs":1},
                      {"a":"c","b":"d","capacityMbps":10,"delayMs":1}]}
            """,
            "fork");
    CandidatePaths cp = new CandidatePaths(t, 8);
    LinkState state = LinkState.nominal(t);
    QomraBooks books = new QomraBooks();
    QomraConfig oneSubflow = QomraConfig.DEFAULTS.withK(1);
    QomraSelector q =
        new QomraSelector(oneSubflow, new QomraSelector.Context(books, l -> 0, p -> List.of()));
    List<Path> ad = cp.between(t.switches().get(0), t.switches().get(3));
    List<Path> bd = cp.between(t.switches().get(1), t.switches().get(3));
    SelectionProblem plain =
        new SelectionProblem("x", "s", 1, ad, state, p -> 0, SelectionConfig.DEFAULTS, 1);
    // Without any demand recorded the tie goes to the first candidate, a-b-d.
    assertEquals(ad.get(0), q.select(plain).paths().get(0));
    q.flowEnded("x -> s");
    for (int i = 0; i < 3; i++) {
      q.select(
          new SelectionProblem("b" + i, "s", 1, bd, state, p -> 0, SelectionConfig.DEFAULTS, 1));
    }
    books.store().remove("x -> s");
    q.clock(100);
    Path chosen =
        q.select(new SelectionProblem("y", "s", 1, ad, state, p -> 0, SelectionConfig.DEFAULTS, 1))
            .paths()
            .get(0);
    assertEquals("[0, 2, 3]", chosen.toString(), "a-c-d avoids the critical b-d");
    assertNotEquals(0, books.lastCriticality().of(1));
  }

  @Test
  void rebookKeepsHeldPathsFirstAndDropsWhatNoLongerFits() {
    LinkState state = LinkState.nominal(DC);
    QomraSelector q = new QomraSelector();
    List<Path> h1 = q.select(join("h1", "e1", state)).paths();
    q.select(join("h2", "e1", state));
    // A link went down elsewhere: h1 keeps two of its paths and is offered a new one over e1-a2,
    // listed first. Held paths are booked first, so the new one is what no longer fits.
    Path held = h1.get(1);
    Path x =
        PATHS.between(sw("e1"), sw("c1")).stream()
            .filter(p -> p.links()[0] == held.links()[0] && !h1.contains(p))
            .findFirst()
            .orElseThrow();
    List<Path> answer = q.rebook("h1 -> srv1", new ArrayList<>(List.of(x, h1.get(0), held)), state);
    assertNull(answer.get(0), "no room for it: the index gets no path");
    assertEquals(h1.get(0), answer.get(1));
    assertEquals(held, answer.get(2));
    assertEquals(2, q.books().ledger().of("h1 -> srv1").size());
    assertWithinCapacity(q.books().ledger(), state);
  }

  @Test
  void badParametersAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> QomraConfig.DEFAULTS.withK(0));
    assertThrows(IllegalArgumentException.class, () -> QomraConfig.DEFAULTS.withIntervalS(0));
    assertThrows(
        IllegalArgumentException.class, () -> QomraConfig.DEFAULTS.withWeights(0, 0, 0, 0));
    assertThrows(
        IllegalArgumentException.class, () -> QomraConfig.DEFAULTS.withWeights(-1, 1, 1, 1));
    assertEquals(
        "unknown resolution '4k' (known: 1080p, 720p, 480p, 360p, 240p)",
        assertThrows(IllegalArgumentException.class, () -> Resolution.parse("4k")).getMessage());
    assertEquals(Resolution.P1080, Resolution.parse(" 1080P "));
    assertEquals(0.725, Resolution.P360.rateMbps());
  }
}
