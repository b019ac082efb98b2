package org.mpqoe.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.select.ClientAssignments;
import org.mpqoe.core.topology.DescriptorCheck;
import org.mpqoe.core.topology.NetworkView;
import org.mpqoe.core.topology.NetworkViews;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyBuilder;

/**
 * The control plane on a topology rebuilt at run time ({@link MptcpControlPlane#replaceTopology}),
 * on the network of {@link MptcpRouterTest#TOPO}: switches a..e are dpids 1..5; the client's three
 * paths are a-b-d, a-c-d, a-e-d; link b-c is used by nobody.
 */
class TopologyReplacementTest {
  private static final long B = 2;
  private static final long C = 3;
  private static final ControlConfig EXACT = ControlConfig.defaults().withAlgorithm("exact");
  private static final TopologyBuilder.Options OPTIONS =
      DiscoveryConfig.DEFAULTS.withServers(List.of("10.0.1.1")).topologyOptions(false);

  private static NetworkViews.Editable cabled() {
    return NetworkViews.cabled(MptcpRouterTest.TOPO, 10_000);
  }

  private static TopologyBuilder.Built withDescriptor(NetworkView v) {
    return TopologyBuilder.build(v, Optional.of(MptcpRouterTest.TOPO), OPTIONS);
  }

  private static TopologyBuilder.Built discovered(NetworkView v) {
    return TopologyBuilder.build(v, Optional.empty(), OPTIONS);
  }

  /** The link keys a path crosses, in order. */
  private static List<Topology.LinkKey> keys(Topology t, Path p) {
    List<Topology.LinkKey> out = new ArrayList<>();
    for (int l : p.links()) {
      out.add(t.linkKey(l));
    }
    return out;
  }

  /** Every subflow rule leaves its switch through a port of a link of {@code t} or a host port. */
  private static void rulesOnlyOverLinksOf(Topology t, MptcpControlPlane cp) {
    Set<List<Long>> ports = new HashSet<>();
    t.links()
        .forEach(
            l -> {
              ports.add(List.of(l.a().dpid(), (long) l.portA()));
              ports.add(List.of(l.b().dpid(), (long) l.portB()));
            });
    t.hosts()
        .forEach(
            h ->
                h.interfaces()
                    .forEach(f -> ports.add(List.of(f.attachment().dpid(), (long) f.port()))));
    for (Connection c : cp.router().connections()) {
      for (Connection.Subflow sf : c.subflows()) {
        for (FlowRule r : sf.rules()) {
          for (FlowAction a : r.actions()) {
            if (a instanceof FlowAction.Output o) {
              assertTrue(ports.contains(List.of(r.dpid(), (long) o.port())), r.toString());
            }
          }
        }
      }
    }
  }

  /** |H_p| as the router keeps it agrees with the assignments. */
  private static void usersAgree(MptcpControlPlane cp) {
    for (ClientAssignments.Assignment a : cp.router().assignments()) {
      for (Path p : a.distinctPaths()) {
        long n =
            cp.router().assignments().stream().filter(x -> x.distinctPaths().contains(p)).count();
        assertEquals(n, cp.router().users(p), p.toString());
      }
    }
  }

  private static boolean assignedUses(List<List<Topology.LinkKey>> paths, Topology.LinkKey k) {
    return paths.stream().anyMatch(p -> p.contains(k));
  }

  private static Connection.Subflow onlySubflow(MptcpControlPlane cp) {
    assertEquals(1, cp.router().connections().size());
    return cp.router().connections().get(0).subflows().get(0);
  }

  @Test
  void aRemovedLinkMovesTheSubflowOnIt() {
    TopologyBuilder.Built start = withDescriptor(cabled().freeze());
    MptcpControlPlane cp =
        new MptcpControlPlane(
            start.topology(), EXACT, MptcpControlPlane.Source.DESCRIPTOR_AND_DISCOVERED);
    assertEquals(MptcpControlPlane.Source.DESCRIPTOR_AND_DISCOVERED, cp.source());
    cp.router().handle(MptcpRouterTest.syn(MptcpRouterTest.CL1, 5000)).orElseThrow();
    Connection.Subflow before = onlySubflow(cp);
    Topology.LinkKey bd = Topology.LinkKey.of(B, 2, 4, 1);
    assertEquals(List.of(Topology.LinkKey.of(1, 1, B, 1), bd), keys(cp.topology(), before.path()));

    TopologyBuilder.Built next = withDescriptor(cabled().unplug(B, 4).freeze());
    FlowPlan plan = cp.replaceTopology(next.topology(), next.mismatches());

    assertEquals(
        List.of(DescriptorCheck.Kind.MISSING_LINK),
        cp.topologyMismatches().stream().map(DescriptorCheck.Mismatch::kind).toList());
    assertEquals(-1, cp.topology().indexOf(bd));
    Connection.Subflow after = onlySubflow(cp);
    assertFalse(keys(cp.topology(), after.path()).contains(bd), "off the removed link");
    assertEquals(1, Cookies.generation(after.cookie()), "a new cookie generation");
    assertEquals(
        List.of(new FlowPlan.Removal(0, before.cookie(), Cookies.EXACT)),
        plan.removals().stream().filter(r -> r.cookie() == before.cookie()).toList(),
        "the old rules are deleted");
    assertTrue(plan.installs().containsAll(after.rules()), "the new rules are installed");
    rulesOnlyOverLinksOf(cp.topology(), cp);
    usersAgree(cp);
    ClientAssignments.Assignment a = cp.router().assignments().get(0);
    for (Path p : a.distinctPaths()) {
      assertFalse(keys(cp.topology(), p).contains(bd));
    }
    String rest = cp.rest().handle("GET", "/mpqoe/topology", null).json();
    assertTrue(rest.contains("\"source\":\"descriptor+discovered\""), rest);
    assertTrue(rest.contains("\"kind\":\"MISSING_LINK\""), rest);
  }

  @Test
  void anAddedLinkMovesNothing() {
    TopologyBuilder.Built start = withDescriptor(cabled().unplug(B, C).freeze());
    MptcpControlPlane cp = new MptcpControlPlane(start.topology(), EXACT);
    cp.router().handle(MptcpRouterTest.syn(MptcpRouterTest.CL1, 5000)).orElseThrow();
    Connection.Subflow before = onlySubflow(cp);
    List<Topology.LinkKey> pathBefore = keys(cp.topology(), before.path());
    int links = cp.topology().links().size();

    TopologyBuilder.Built next = withDescriptor(cabled().freeze());
    FlowPlan plan = cp.replaceTopology(next.topology(), next.mismatches());

    assertEquals(links + 1, cp.topology().links().size());
    assertEquals(List.of(), cp.topologyMismatches());
    assertTrue(plan.isEmpty(), plan.toString());
    Connection.Subflow after = onlySubflow(cp);
    assertEquals(before.cookie(), after.cookie());
    assertEquals(before.rules(), after.rules());
    assertEquals(pathBefore, keys(cp.topology(), after.path()));
    usersAgree(cp);
  }

  @Test
  void shuffledIndicesAreFollowedByKey() {
    // Without a descriptor links are in (dpid, port) order: b-c coming in moves c-d and e-d up.
    TopologyBuilder.Built start = discovered(cabled().unplug(B, C).freeze());
    MptcpControlPlane cp = new MptcpControlPlane(start.topology(), EXACT);
    assertEquals(MptcpControlPlane.Source.DISCOVERED, cp.source());
    cp.router().handle(MptcpRouterTest.syn(MptcpRouterTest.CL1, 5000)).orElseThrow();
    Topology old = cp.topology();
    List<List<Topology.LinkKey>> assigned = new ArrayList<>();
    for (Path p : cp.router().assignments().get(0).paths()) {
      assigned.add(keys(old, p));
    }
    Connection.Subflow before = onlySubflow(cp);
    Topology.LinkKey cd = Topology.LinkKey.of(C, 2, 4, 2);
    int cdBefore = old.indexOf(cd);

    TopologyBuilder.Built next = discovered(cabled().freeze());
    FlowPlan plan = cp.replaceTopology(next.topology(), next.mismatches());

    assertNotEquals(cdBefore, cp.topology().indexOf(cd), "indices moved");
    assertTrue(assignedUses(assigned, cd), "and a path of the client crosses a moved link");
    List<List<Topology.LinkKey>> now = new ArrayList<>();
    for (Path p : cp.router().assignments().get(0).paths()) {
      now.add(keys(cp.topology(), p));
    }
    assertEquals(assigned, now, "the same links, by key");
    Connection.Subflow after = onlySubflow(cp);
    assertEquals(before.cookie(), after.cookie());
    assertEquals(before.rules(), after.rules(), "rules match ports: nothing to change");
    assertTrue(plan.isEmpty(), plan.toString());
    usersAgree(cp);
    // A join after the rebuild gets the path of its index on the new topology.
    cp.router().handle(MptcpRouterTest.synAck(MptcpRouterTest.CL1, 5000, 42L));
    Reaction join =
        cp.router()
            .handle(
                MptcpRouterTest.join(
                    MptcpRouterTest.CL2, 5001, org.mpqoe.core.mptcp.Tokens.token(42L, 1)))
            .orElseThrow();
    assertEquals(Reaction.Kind.MPTCP, join.kind(), join.log());
    rulesOnlyOverLinksOf(cp.topology(), cp);
  }

  @Test
  void anUnchangedRebuildOnlyTakesTheLatencies() {
    TopologyBuilder.Built start = discovered(cabled().freeze());
    MptcpControlPlane cp = new MptcpControlPlane(start.topology(), EXACT);
    cp.router().handle(MptcpRouterTest.syn(MptcpRouterTest.CL1, 5000)).orElseThrow();
    Topology before = cp.topology();
    Connection.Subflow sf = onlySubflow(cp);
    NetworkViews.Editable v = cabled().unplug(B, C);
    v.link(B, 3, C, 3, 7.5); // b-c again, now measured at 7.5 ms
    TopologyBuilder.Built next = discovered(v.freeze());
    int bc = next.topology().indexOf(Topology.LinkKey.of(B, 3, C, 3));

    FlowPlan plan = cp.replaceTopology(next.topology(), next.mismatches());

    assertTrue(plan.isEmpty());
    assertSame(before, cp.topology(), "the network state was kept");
    assertEquals(7.5, cp.links().snapshot().delayMs(bc));
    assertEquals(sf, onlySubflow(cp));
  }
}
