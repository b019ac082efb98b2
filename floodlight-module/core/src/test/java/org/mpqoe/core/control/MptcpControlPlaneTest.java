package org.mpqoe.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.packet.Addresses;
import org.mpqoe.core.packet.Frame;

class MptcpControlPlaneTest {
  private final MptcpControlPlane cp =
      new MptcpControlPlane(MptcpRouterTest.TOPO, ControlConfig.defaults().withAlgorithm("exact"));

  static byte[] arpRequest(long senderMac, int senderIp, int targetIp) {
    ByteBuffer b = ByteBuffer.allocate(42);
    b.put(new byte[] {-1, -1, -1, -1, -1, -1});
    b.put(mac(senderMac)).putShort((short) 0x0806);
    b.putShort((short) 1).putShort((short) 0x0800).put((byte) 6).put((byte) 4).putShort((short) 1);
    b.put(mac(senderMac)).putInt(senderIp).put(new byte[6]).putInt(targetIp);
    return b.array();
  }

  static byte[] ipv4Udp(int src, int dst) {
    ByteBuffer b = ByteBuffer.allocate(14 + 28);
    b.put(new byte[6]).put(new byte[6]).putShort((short) 0x0800);
    b.put((byte) 0x45).put((byte) 0).putShort((short) 28).putInt(0);
    b.put((byte) 64).put((byte) 17).putShort((short) 0).putInt(src).putInt(dst);
    b.putLong(0);
    return b.array();
  }

  /** A TCP segment without options (data or an ACK). */
  static byte[] tcp(int src, int dst, int srcPort, int dstPort, int flags) {
    ByteBuffer b = ByteBuffer.allocate(14 + 20 + 20);
    b.put(new byte[6]).put(new byte[6]).putShort((short) 0x0800);
    b.put((byte) 0x45).put((byte) 0).putShort((short) 40).putInt(0);
    b.put((byte) 64).put((byte) 6).putShort((short) 0).putInt(src).putInt(dst);
    b.putShort((short) srcPort).putShort((short) dstPort).putInt(1).putInt(1);
    b.put((byte) 0x50).put((byte) flags).putShort((short) 1000).putInt(0);
    return b.array();
  }

  private static byte[] mac(long m) {
    byte[] out = new byte[6];
    for (int i = 0; i < 6; i++) {
      out[i] = (byte) (m >>> (40 - 8 * i));
    }
    return out;
  }

  @Test
  void switchesGetATableMissAndDeliveryToTheirHosts() {
    List<FlowRule> d = cp.switchConnected(4);
    assertTrue(
        d.contains(
            new FlowRule(
                4,
                0,
                0,
                new FlowMatch.All(),
                List.of(new FlowAction.ToController()),
                0,
                Cookies.of(Cookies.TABLE_MISS),
                false)));
    assertTrue(
        d.contains(
            new FlowRule(
                4,
                0,
                10000,
                new FlowMatch.Ipv4Destination(MptcpRouterTest.SRV),
                List.of(new FlowAction.Output(4)),
                0,
                Cookies.of(Cookies.DELIVERY),
                false)));
    FlowRule syns =
        new FlowRule(
            4,
            0,
            1,
            new FlowMatch.TcpSyn(0),
            List.of(new FlowAction.ToController()),
            0,
            Cookies.of(Cookies.TABLE_MISS),
            false);
    assertTrue(d.contains(syns), "SYNs to the controller just above the table-miss entry");
    assertEquals(3, d.size(), "no label rules without segment routing");
    assertEquals(
        List.of(
            new FlowRule(
                99,
                0,
                0,
                new FlowMatch.All(),
                List.of(new FlowAction.ToController()),
                0,
                Cookies.of(Cookies.TABLE_MISS),
                false),
            new FlowRule(
                99,
                0,
                1,
                new FlowMatch.TcpSyn(0),
                List.of(new FlowAction.ToController()),
                0,
                Cookies.of(Cookies.TABLE_MISS),
                false)),
        cp.switchConnected(99),
        "a switch the topology does not know (yet) gets the table-miss entries only");
  }

  @Test
  void arpRequestsForKnownAddressesAreAnsweredFromTheTopology() {
    long clientMac = Addresses.parseMac("02:00:00:00:01:0b");
    Reaction r = cp.packetIn(1, 4, arpRequest(clientMac, MptcpRouterTest.CL1, MptcpRouterTest.SRV));
    assertEquals(Reaction.Kind.ARP, r.kind());
    var out = r.plan().packetOut();
    assertEquals(List.of(new FlowAction.Output(4)), out.actions());
    Frame reply = Frame.parse(out.frame());
    assertEquals(Addresses.parseMac("02:00:00:00:01:01"), reply.arp().senderMac());
    assertEquals(MptcpRouterTest.SRV, reply.arp().senderIp());
    assertEquals(clientMac, reply.ethernet().dst());
    Reaction unknown =
        cp.packetIn(
            1, 4, arpRequest(clientMac, MptcpRouterTest.CL1, Addresses.parseIpv4("10.9.9.9")));
    assertEquals(Reaction.Kind.DROPPED, unknown.kind());
  }

  /** Polls until {@code done} holds, at most 10 s (an early selection runs on its own thread). */
  private static boolean within10s(java.util.function.BooleanSupplier done)
      throws InterruptedException {
    long end = System.nanoTime() + 10_000_000_000L;
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > end) {
        return false;
      }
      Thread.sleep(5);
    }
    return true;
  }

  @Test
  void selectingAtTheFirstPacketReadiesTheClientsPathsBeforeItsSyn() throws Exception {
    MptcpControlPlane early =
        new MptcpControlPlane(
            MptcpRouterTest.TOPO,
            ControlConfig.defaults().withAlgorithm("exact").withSelectAt("first-packet"));
    long clientMac = Addresses.parseMac("02:00:00:00:01:0b");
    long before = early.stats().snapshot().selections();
    Reaction arp =
        early.packetIn(1, 4, arpRequest(clientMac, MptcpRouterTest.CL1, MptcpRouterTest.SRV));
    assertEquals(Reaction.Kind.ARP, arp.kind(), "the ARP is answered at once, as without");
    assertTrue(within10s(() -> !early.router().assignments().isEmpty()), "selected early");
    assertEquals(before + 1, early.stats().snapshot().selections());
    Reaction syn = early.router().handle(MptcpRouterTest.syn(MptcpRouterTest.CL1, 5000)).get();
    assertEquals(Reaction.Kind.MPTCP, syn.kind(), syn.log());
    assertEquals(before + 1, early.stats().snapshot().selections(), "the SYN selected nothing");
    // Floodlight's entry point starts it too, and the paper's default does not.
    MptcpControlPlane fl =
        new MptcpControlPlane(
            MptcpRouterTest.TOPO, ControlConfig.defaults().withSelectAt("first-packet"));
    fl.mptcpPacketIn(1, 4, ipv4Udp(MptcpRouterTest.CL1, MptcpRouterTest.SRV));
    assertTrue(within10s(() -> !fl.router().assignments().isEmpty()));
    cp.packetIn(1, 4, arpRequest(clientMac, MptcpRouterTest.CL1, MptcpRouterTest.SRV));
    Thread.sleep(50);
    assertTrue(cp.router().assignments().isEmpty(), "selectAt syn: nothing before the SYN");
  }

  @Test
  void anEarlySelectionNoConnectionUsedIsDroppedAfterTheIdleTimeout() throws Exception {
    MptcpControlPlane early =
        new MptcpControlPlane(
            MptcpRouterTest.TOPO,
            ControlConfig.defaults()
                .withAlgorithm("exact")
                .withSelectAt("first-packet")
                .withTimers(1, 2));
    early.packetIn(1, 4, ipv4Udp(MptcpRouterTest.CL1, MptcpRouterTest.SRV));
    assertTrue(within10s(() -> !early.router().assignments().isEmpty()));
    assertTrue(within10s(() -> early.router().assignments().isEmpty()), "dropped after 1 s");
    // One that a connection took up stays.
    early.packetIn(1, 4, ipv4Udp(MptcpRouterTest.CL1, MptcpRouterTest.SRV));
    assertTrue(within10s(() -> !early.router().assignments().isEmpty()));
    early.router().handle(MptcpRouterTest.syn(MptcpRouterTest.CL1, 5000));
    Thread.sleep(1500);
    assertEquals(1, early.router().assignments().size());
    assertEquals(1, early.router().assignments().get(0).connections());
  }

  @Test
  void plainIpv4FollowsTheShortestPath() {
    Reaction r = cp.packetIn(1, 4, ipv4Udp(MptcpRouterTest.CL1, MptcpRouterTest.SRV));
    assertEquals(Reaction.Kind.PLAIN, r.kind());
    // a-b-d: rules on b (to d, port 2 of b) and a (to b, port 1 of a); d has its delivery rule.
    assertEquals(List.of(2L, 1L), r.plan().installs().stream().map(FlowRule::dpid).toList());
    assertEquals(List.of(new FlowAction.Output(1)), r.plan().installs().get(1).actions());
    assertEquals(
        List.of(new FlowAction.Output(FlowAction.PORT_TABLE)), r.plan().packetOut().actions());
    assertEquals(Reaction.Kind.IGNORED, cp.mptcpPacketIn(1, 4, ipv4Udp(1, 2)).kind());
  }

  @Test
  void aReconnectingSwitchGetsItsLiveSubflowRulesAndOnlyExpiryEndsSubflows() {
    cp.router().handle(MptcpRouterTest.syn(MptcpRouterTest.CL1, 5000));
    cp.router().handle(MptcpRouterTest.synAck(MptcpRouterTest.CL1, 5000, 7));
    FlowMatch.Subflow down =
        new FlowMatch.Subflow(MptcpRouterTest.SRV, MptcpRouterTest.CL1, 80, 5000);
    List<FlowRule> atD = cp.switchConnected(4);
    FlowRule serverSide =
        atD.stream().filter(r -> r.match().equals(down)).findFirst().orElseThrow();
    // d sends towards b over its first link (port 1), and copies the SYN/ACKs at one above.
    assertEquals(List.of(new FlowAction.Output(1)), serverSide.actions());
    FlowRule copy = atD.stream().filter(SubflowRules::isSynAckCopy).findFirst().orElseThrow();
    assertEquals(new FlowMatch.SynAck(down), copy.match());
    long cookie = serverSide.cookie();
    cp.flowRemoved(4, cookie, false);
    assertEquals(1, cp.router().connections().size(), "a deletion ends nothing");
    cp.flowRemoved(4, cookie, true);
    assertTrue(cp.router().connections().isEmpty(), "an expiry ends the subflow");
    assertEquals(3, cp.switchConnected(4).size(), "table-miss entries and delivery only");
  }

  @Test
  void onlyTheSynAckCopyIsTakenAndOtherSegmentsAreSentOnNotRoutedAgain() {
    cp.router().handle(MptcpRouterTest.syn(MptcpRouterTest.CL1, 5000));
    // A server without MPTCP answers with a plain SYN/ACK: its copy teaches no key, sends nothing.
    byte[] synAck = tcp(MptcpRouterTest.SRV, MptcpRouterTest.CL1, 80, 5000, 0x12);
    Reaction copied = cp.packetIn(4, 4, synAck);
    assertEquals(Reaction.Kind.MPTCP, copied.kind());
    assertTrue(copied.plan().isEmpty());
    assertNull(cp.router().connections().get(0).serverToken());
    // Any other segment of the subflow at d came through no copy rule (a table without the
    // subflow's rules yet): it is sent on through the table, once; never routed again.
    byte[] data = tcp(MptcpRouterTest.SRV, MptcpRouterTest.CL1, 80, 5000, 0x10);
    Reaction again = cp.mptcpPacketIn(4, 4, data);
    assertEquals(Reaction.Kind.MPTCP, again.kind(), "Floodlight: STOP");
    assertTrue(again.plan().installs().isEmpty() && again.plan().modifications().isEmpty());
    assertEquals(4, again.plan().packetOut().dpid());
    // At a switch without the subflow's rules it would come back: dropped.
    assertEquals(Reaction.Kind.DROPPED, cp.packetIn(3, 1, data).kind());
    // The same bytes of an unrelated connection are ordinary traffic.
    byte[] other = tcp(MptcpRouterTest.SRV, MptcpRouterTest.CL1, 80, 7777, 0x10);
    assertEquals(Reaction.Kind.PLAIN, cp.packetIn(4, 4, other).kind());
  }

  @Test
  void plainTcpRulesMatchTheConnectionSoNewSynsStillReachTheController() {
    Reaction r = cp.packetIn(1, 4, tcp(MptcpRouterTest.CL1, MptcpRouterTest.SRV, 4000, 22, 0x02));
    assertEquals(Reaction.Kind.PLAIN, r.kind());
    FlowMatch expected = new FlowMatch.Subflow(MptcpRouterTest.CL1, MptcpRouterTest.SRV, 4000, 22);
    r.plan().installs().forEach(rule -> assertEquals(expected, rule.match()));
    assertEquals(10000, r.plan().installs().get(0).priority());
    Reaction udp = cp.packetIn(1, 4, ipv4Udp(MptcpRouterTest.CL1, MptcpRouterTest.SRV));
    udp.plan()
        .installs()
        .forEach(
            rule ->
                assertEquals(new FlowMatch.Ipv4Protocol(MptcpRouterTest.SRV, 17), rule.match()));
  }

  @Test
  void portsOfLinksDriveLinkStateHostPortsDoNot() {
    assertTrue(cp.portStatus(1, 4, false).isEmpty(), "port 4 of a is a host port");
    cp.portStatus(1, 1, false);
    var topo = cp.rest().handle("GET", "/mpqoe/topology", null);
    assertEquals(200, topo.status());
    assertTrue(
        topo.json()
            .contains("\"index\":0,\"a\":\"a\",\"portA\":1,\"b\":\"b\",\"portB\":1,\"up\":false"),
        topo.json());
  }

  /** Whether GET /mpqoe/topology shows link 0 (a port 1 - b port 1) up. */
  private boolean linkAbUp() {
    String json = cp.rest().handle("GET", "/mpqoe/topology", null).json();
    String link = "\"index\":0,\"a\":\"a\",\"portA\":1,\"b\":\"b\",\"portB\":1,\"up\":";
    boolean up = json.contains(link + "true");
    assertTrue(up != json.contains(link + "false"), json);
    return up;
  }

  @Test
  void aLinkIsUpOnlyWhileBothOfItsPortsAre() {
    // Link 0 joins a (dpid 1) port 1 and b (dpid 2) port 1. Taking it down, b's "down" can come
    // before a's last "up": the link stays down.
    assertTrue(linkAbUp());
    cp.portStatus(2, 1, false);
    cp.portStatus(1, 1, true);
    assertFalse(linkAbUp(), "a's late up must not bring the link back while b is down");
    cp.portStatus(1, 1, false);
    cp.portStatus(2, 1, true);
    assertFalse(linkAbUp(), "b is up again, a is still down");
    cp.portStatus(1, 1, true);
    assertTrue(linkAbUp(), "both ends up");
  }
}
