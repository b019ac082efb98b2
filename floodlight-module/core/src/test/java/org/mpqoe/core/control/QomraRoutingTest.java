package org.mpqoe.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.mptcp.MptcpHandshake;
import org.mpqoe.core.packet.Addresses;
import org.mpqoe.core.select.QomraConfig;
import org.mpqoe.core.select.Resolution;
import org.mpqoe.core.select.Selection;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyLoader;

/**
 * QoMRA in the controller: three two-hop routes a-x-d (x = b, c, e) of 5 Mbit/s, and 1080p (5
 * Mbit/s a subflow), so each route admits one subflow. Two clients with three interfaces on a, the
 * server on d.
 */
class QomraRoutingTest {
  static final Topology TOPO =
      TopologyLoader.parse(
          """
          {"schema":1,"name":"narrow","description":"three narrow routes",
           "switches":[{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d"},{"name":"e"}],
           "links":[{"a":"a","b":"b","capacityMbps":5,"delayMs":5},
                    {"a":"b","b":"d","capacityMbps":5,"delayMs":5},
                    {"a":"a","b":"c","capacityMbps":5,"delayMs":5},
                    {"a":"c","b":"d","capacityMbps":5,"delayMs":5},
                    {"a":"a","b":"e","capacityMbps":5,"delayMs":5},
                    {"a":"e","b":"d","capacityMbps":5,"delayMs":5},
                    {"a":"b","b":"c","capacityMbps":5,"delayMs":5}],
           "hosts":[
             {"name":"one","role":"client","interfaces":[
               {"ip":"10.0.1.11","mac":"02:00:00:00:01:0b","switch":"a"},
               {"ip":"10.0.2.11","mac":"02:00:00:00:02:0b","switch":"a"},
               {"ip":"10.0.3.11","mac":"02:00:00:00:03:0b","switch":"a"}]},
             {"name":"two","role":"client","interfaces":[
               {"ip":"10.0.1.12","mac":"02:00:00:00:01:0c","switch":"a"},
               {"ip":"10.0.2.12","mac":"02:00:00:00:02:0c","switch":"a"},
               {"ip":"10.0.3.12","mac":"02:00:00:00:03:0c","switch":"a"}]},
             {"name":"srv","role":"server","interfaces":[
               {"ip":"10.0.1.1","mac":"02:00:00:00:01:01","switch":"d"}]}]}
          """,
          "narrow");
  static final int SRV = Addresses.parseIpv4("10.0.1.1");

  static int ip(int iface, int client) {
    return Addresses.parseIpv4("10.0." + iface + "." + (10 + client));
  }

  static ControlConfig qomra(boolean sr) {
    ControlConfig d = ControlConfig.defaults();
    return d.withAlgorithm("qomra")
        .withRouting(8, sr)
        .withQomra(QomraConfig.DEFAULTS.withResolution(Resolution.P1080));
  }

  static TcpSegment syn(int src, int port) {
    return new TcpSegment(
        1, 1, src, SRV, port, 80, 0x02, new MptcpHandshake.CapableSyn(1, 0, null), new byte[] {1});
  }

  static TcpSegment join(int src, int port, int iface) {
    return new TcpSegment(
        1,
        iface,
        src,
        SRV,
        port,
        80,
        0x02,
        new MptcpHandshake.JoinSyn(0x1234, 1, 0, false),
        new byte[] {1});
  }

  static MptcpControlPlane plane(boolean sr) {
    return new MptcpControlPlane(TOPO, qomra(sr));
  }

  static int assignedPaths(MptcpRouter r, String client) {
    return r.assignments().stream()
        .filter(a -> a.client().name().equals(client))
        .mapToInt(a -> (int) a.paths().stream().filter(Objects::nonNull).count())
        .sum();
  }

  /**
   * On qomra-dc a client's third disjoint route to the server crosses another edge switch and needs
   * four labels, one more than Open vSwitch can push: with segment routing it is no candidate, with
   * per-hop rules it is.
   */
  @Test
  void segmentRoutingKeepsToPathsTheSwitchesCanPush() {
    Topology dc = TopologyLoader.load("qomra-dc");
    SegmentRouting sr = new SegmentRouting(dc);
    for (boolean withSr : new boolean[] {false, true}) {
      MptcpControlPlane cp =
          new MptcpControlPlane(
              dc, ControlConfig.defaults().withAlgorithm("qomra").withRouting(8, withSr));
      Selection s =
          cp.router()
              .state
              .selection
              .select(dc.clients().get(0), dc.servers().get(0), 0, cp.links().snapshot(), Map.of());
      int deepest = s.paths().stream().mapToInt(p -> sr.labels(p).size()).max().orElse(0);
      assertTrue(s.paths().size() >= 2, s.toString());
      if (withSr) {
        assertTrue(deepest <= SegmentRouting.MAX_LABEL_DEPTH, s.toString());
      } else {
        assertTrue(deepest > SegmentRouting.MAX_LABEL_DEPTH, "the per-hop case " + s);
      }
    }
  }

  @Test
  void aClientIsAdmittedOnceAnotherClientsConnectionEnds() {
    MptcpControlPlane cp = plane(false);
    MptcpRouter r = cp.router();
    Reaction first = r.handle(syn(ip(1, 1), 5000)).orElseThrow();
    assertEquals(Reaction.Kind.MPTCP, first.kind());
    assertEquals(3, assignedPaths(r, "one"));
    long c1 = first.plan().installs().get(0).cookie();
    // The three routes are full: "two" is refused, and not kept, so it can try again.
    Reaction refused = r.handle(syn(ip(1, 2), 6000)).orElseThrow();
    assertEquals(Reaction.Kind.DROPPED, refused.kind(), refused.toString());
    assertEquals(0, assignedPaths(r, "two"));
    // one's only subflow expires: its connection and assignment end, capacity is given back.
    cp.flowRemoved(1, c1, true);
    assertEquals(0, r.qomraBooks().ledger().subflows());
    Reaction admitted = r.handle(syn(ip(1, 2), 6001)).orElseThrow();
    assertEquals(Reaction.Kind.MPTCP, admitted.kind(), admitted.toString());
    assertEquals(3, assignedPaths(r, "two"));
  }

  @Test
  void anEndedSubflowFreesItsPathForTheNextClient() {
    MptcpControlPlane cp = plane(false);
    MptcpRouter r = cp.router();
    r.handle(syn(ip(1, 1), 5000)).orElseThrow();
    r.handle(join(ip(2, 1), 5001, 2)).orElseThrow();
    Reaction third = r.handle(join(ip(3, 1), 5002, 3)).orElseThrow();
    assertEquals(Reaction.Kind.MPTCP, third.kind(), third.toString());
    assertEquals(3, r.connections().get(0).subflows().size());
    cp.flowRemoved(1, third.plan().installs().get(0).cookie(), true);
    assertEquals(2, r.connections().get(0).subflows().size(), "the connection lives on");
    assertEquals(2, assignedPaths(r, "one"), "the third path was given back");
    assertEquals(2, r.qomraBooks().ledger().subflows());
    r.handle(syn(ip(1, 2), 6000)).orElseThrow();
    assertEquals(1, assignedPaths(r, "two"), "one subflow fits where one's third was");
    // A rejoin on one's third interface gets no rules now.
    assertEquals(Reaction.Kind.DROPPED, r.handle(join(ip(3, 1), 5003, 3)).orElseThrow().kind());
  }

  @Test
  void aLinkDownKeepsTheBooksWithinCapacity() {
    MptcpControlPlane cp = plane(false);
    MptcpRouter r = cp.router();
    r.handle(syn(ip(1, 1), 5000));
    r.handle(join(ip(2, 1), 5001, 2));
    r.handle(join(ip(3, 1), 5002, 3));
    // Link a-e (2) goes down: the subflow on a-e-d has nowhere to go (the others are full).
    r.linkChanged(4, false);
    var a = r.assignments().get(0);
    assertEquals(2, a.paths().stream().filter(Objects::nonNull).count());
    assertEquals(2, r.qomraBooks().ledger().subflows());
    for (int l = 0; l < TOPO.links().size(); l++) {
      assertTrue(r.qomraBooks().ledger().reservedMbps(l) <= 5 + 1e-9);
    }
  }

  @Test
  void aBusyFlowGetsADetourAroundAFailedLinkWhenReservationsAllowIt() {
    // 480p: 1 Mbit/s a subflow, so each 5 Mbit/s route has room for more by the books.
    MptcpControlPlane cp =
        new MptcpControlPlane(
            TOPO,
            ControlConfig.defaults()
                .withAlgorithm("qomra")
                .withQomra(QomraConfig.DEFAULTS.withResolution(Resolution.P480)));
    MptcpRouter r = cp.router();
    r.handle(syn(ip(1, 1), 5000));
    r.handle(join(ip(2, 1), 5001, 2));
    r.handle(join(ip(3, 1), 5002, 3));
    assertEquals(3, r.connections().get(0).subflows().size());
    // The flow's own elastic traffic fills every link (4.5 of 5 Mbit/s measured): by the
    // measurement alone nothing more would fit anywhere.
    for (var l : TOPO.links()) {
      cp.links().portStats(l.a().dpid(), l.portA(), 0, 0);
      cp.links().portStats(l.a().dpid(), l.portA(), 562_500, 1_000_000_000L);
    }
    assertEquals(4.5, cp.links().loadMbps(0), 1e-9);
    r.linkChanged(4, false);
    var a = r.assignments().get(0);
    assertEquals(3, a.paths().stream().filter(Objects::nonNull).count(), a.paths().toString());
    assertTrue(a.paths().stream().filter(Objects::nonNull).noneMatch(p -> p.uses(4)));
    assertEquals(3, r.qomraBooks().ledger().subflows());
    assertEquals(1, r.connections().size(), "the connection lives on");
    assertEquals(3, r.connections().get(0).subflows().size());
  }

  @Test
  void restShowsTheStoreWithLabelsAndRulesPerClientInBothModes() throws Exception {
    for (boolean sr : new boolean[] {false, true}) {
      MptcpControlPlane cp = plane(sr);
      cp.router().handle(syn(ip(1, 1), 5000));
      cp.router().handle(join(ip(2, 1), 5001, 2));
      cp.router().handle(join(ip(3, 1), 5002, 3));
      ObjectMapper m = new ObjectMapper();
      JsonNode q = m.readTree(cp.rest().handle("GET", "/mpqoe/qomra", null).json());
      assertTrue(q.get("active").asBoolean());
      assertEquals(5.0, q.get("requiredMbps").asDouble());
      assertEquals(3, q.get("admittedSubflows").asInt());
      JsonNode entry = q.get("store").get(0);
      assertEquals("one -> srv", entry.get("flow").asText());
      assertEquals(3, entry.get("paths").size());
      // a-b-d is the unique shortest a-b then b-d: node segments b (16001) and d (16003).
      assertEquals("[\"a\",\"b\",\"d\"]", entry.get("paths").get(0).get("switches").toString());
      assertEquals("[16001,16003]", entry.get("paths").get(0).get("labels").toString());
      assertEquals(5.0, q.get("links").get(0).get("reservedMbps").asDouble());
      JsonNode client = m.readTree(cp.rest().handle("GET", "/mpqoe/clients", null).json()).get(0);
      assertEquals(18, client.get("rulesPerHop").asInt(), "3 paths x 3 switches x 2 directions");
      assertEquals(6, client.get("rulesSegmentRouting").asInt(), "3 paths x 2 ingress rules");
      assertEquals(
          (sr ? 6 : 18) + 1,
          client.get("rulesInstalled").asInt(),
          "+ the SYN/ACK copy, mode " + sr);
      assertEquals("[16001,16003]", client.get("labels").get(0).toString());
    }
  }
}
