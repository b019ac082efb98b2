package org.mpqoe.openflow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mpqoe.core.control.ControlConfig;
import org.mpqoe.core.control.Cookies;
import org.mpqoe.core.control.LldpProbes;
import org.mpqoe.core.control.MptcpControlPlane;
import org.mpqoe.core.packet.Addresses;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyLoader;
import org.mpqoe.ofplan.OfTranslator;
import org.projectfloodlight.openflow.protocol.OFEchoReply;
import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.OFErrorType;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowDelete;
import org.projectfloodlight.openflow.protocol.OFHello;
import org.projectfloodlight.openflow.protocol.OFHelloElemVersionbitmap;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketInReason;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFPortReason;
import org.projectfloodlight.openflow.protocol.OFPortState;
import org.projectfloodlight.openflow.protocol.OFPortStatsRequest;
import org.projectfloodlight.openflow.protocol.OFSetConfig;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.action.OFActionOutput;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U64;

/**
 * The controller against fake switches on an ephemeral port, topology three-path (p1..p3 = dpid
 * 1..3, sv = 4; p1 port 1 goes to sv, the client's first interface is on p1 port 2).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StandaloneControllerTest {
  private static final int CLIENT = Addresses.parseIpv4("10.0.1.11");
  private static final int SERVER = Addresses.parseIpv4("10.0.1.1");

  private final BlockingQueue<String> events = new LinkedBlockingQueue<>();
  private MptcpControlPlane plane;
  private StandaloneController controller;
  private final List<FakeSwitch> switches = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    Topology t = TopologyLoader.load("three-path");
    plane = new MptcpControlPlane(t, ControlConfig.defaults().withAlgorithm("pd-delay"));
    controller =
        new StandaloneController(
            plane,
            new StandaloneController.Settings("127.0.0.1", 0, Duration.ofMillis(200)),
            events::add);
    controller.start();
  }

  @AfterEach
  void stop() throws Exception {
    for (FakeSwitch s : switches) {
      s.close();
    }
    controller.close();
  }

  private FakeSwitch connect() throws Exception {
    FakeSwitch s = new FakeSwitch(controller.address());
    switches.add(s);
    return s;
  }

  /** Handshake as a switch of the topology, answering the first barrier. */
  private FakeSwitch ready(long dpid) throws Exception {
    FakeSwitch s = connect();
    List<OFMessage> setup = s.handshake(dpid, 3000);
    OFMessage barrier = setup.get(setup.size() - 1);
    assertEquals(OFType.BARRIER_REQUEST, barrier.getType());
    s.barrierReply(barrier.getXid());
    awaitEvent("connected");
    return s;
  }

  private String awaitEvent(String containing) throws InterruptedException {
    return Events.await(events, containing);
  }

  @Test
  void handshakeClearsTablesInstallsProactiveRulesThenBarrier() throws Exception {
    FakeSwitch s = connect();
    OFMessage hello = s.read();
    assertEquals(OFType.HELLO, hello.getType());
    assertEquals(OFVersion.OF_13, hello.getVersion());
    OFHelloElemVersionbitmap bitmap =
        assertInstanceOf(OFHelloElemVersionbitmap.class, ((OFHello) hello).getElements().get(0));
    assertEquals(1L << 4, bitmap.getBitmaps().get(0).getValue());
    s.send(FakeSwitch.OF.buildHello().setXid(1).build());
    OFMessage req = s.read();
    assertEquals(OFType.FEATURES_REQUEST, req.getType());
    s.send(
        FakeSwitch.OF
            .buildFeaturesReply()
            .setXid(req.getXid())
            .setDatapathId(org.projectfloodlight.openflow.types.DatapathId.of(1))
            .setNTables((short) 254)
            .build());

    List<OFMessage> setup = new ArrayList<>();
    OFMessage barrier = s.readUntil(OFType.BARRIER_REQUEST, setup);
    OFSetConfig config = assertInstanceOf(OFSetConfig.class, setup.get(0));
    assertEquals(0xffff, config.getMissSendLen());
    OFFlowDelete clear = assertInstanceOf(OFFlowDelete.class, setup.get(1));
    assertEquals(TableId.ALL, clear.getTableId());
    assertEquals(U64.ZERO, clear.getCookieMask());
    assertEquals(
        OfTranslator.withXid(new OfTranslator().flowAdd(LldpProbes.reflectRule(1)), 0),
        OfTranslator.withXid(setup.get(2), 0),
        "the reflect rule");
    List<OFFlowAdd> adds = setup.subList(3, setup.size()).stream().map(m -> (OFFlowAdd) m).toList();
    assertEquals(plane.switchConnected(1).size(), adds.size());
    OFFlowAdd miss =
        adds.stream()
            .filter(a -> a.getCookie().getValue() == Cookies.of(Cookies.TABLE_MISS))
            .findFirst()
            .orElseThrow();
    assertEquals(0, miss.getPriority());
    assertTrue(
        adds.stream()
            .anyMatch(
                a ->
                    a.getCookie().getValue() == Cookies.of(Cookies.DELIVERY)
                        && a.getMatch().get(MatchField.IPV4_DST).getInt() == CLIENT));
    // Ready only once the barrier is answered.
    assertNull(events.stream().filter(e -> e.contains("connected")).findAny().orElse(null));
    s.barrierReply(barrier.getXid());
    assertTrue(awaitEvent("connected").contains("p1"));
    assertEquals(java.util.Set.of(1L), controller.connectedSwitches());
  }

  @Test
  void echoIsAnsweredWithTheSameXidAndData() throws Exception {
    FakeSwitch s = ready(1);
    byte[] data = {9, 8, 7};
    s.send(FakeSwitch.OF.buildEchoRequest().setXid(4242).setData(data).build());
    OFEchoReply reply = (OFEchoReply) s.readUntil(OFType.ECHO_REPLY);
    assertEquals(4242, reply.getXid());
    assertArrayEquals(data, reply.getData());
  }

  @Test
  void arpRequestIsAnsweredWithAPacketOut() throws Exception {
    FakeSwitch s = ready(1);
    s.send(packetIn(2, arpRequest(0x020000000107L, CLIENT, SERVER)));
    OFPacketOut out = (OFPacketOut) s.readUntil(OFType.PACKET_OUT);
    assertEquals(OFBufferId.NO_BUFFER, out.getBufferId());
    assertEquals(OFPort.CONTROLLER, out.getInPort());
    assertEquals(OFPort.of(2), ((OFActionOutput) out.getActions().get(0)).getPort());
    ByteBuffer reply = ByteBuffer.wrap(out.getData());
    assertEquals(0x0806, reply.getShort(12) & 0xffff);
    assertEquals(2, reply.getShort(14 + 6)); // ARP reply
    assertEquals(
        MacAddress.of("02:00:00:00:01:01"),
        MacAddress.of(java.util.Arrays.copyOfRange(out.getData(), 22, 28)));
    assertTrue(awaitEvent("packet-in p1 port 2").contains("ARP"));
  }

  @Test
  void packetOutWaitsForTheBarriersOfEverySwitchTouched() throws Exception {
    FakeSwitch p1 = ready(1);
    FakeSwitch sv = ready(4);
    p1.send(packetIn(2, capableSyn(CLIENT, SERVER, 40001, 80)));

    // The SYN's first hop gets its rules only once the server switch confirmed its own
    // (PlanApplier), then a barrier and the packet-out behind it.
    List<OFMessage> atSv = new ArrayList<>();
    OFMessage b4 = sv.readUntil(OFType.BARRIER_REQUEST, atSv);
    assertFalse(atSv.isEmpty());
    assertTrue(atSv.stream().allMatch(m -> m instanceof OFFlowAdd));
    assertNull(p1.poll(300), "flow mods on the first hop before the server switch's barrier reply");
    sv.barrierReply(b4.getXid());

    List<OFMessage> atP1 = new ArrayList<>();
    p1.readUntil(OFType.BARRIER_REQUEST, atP1);
    assertFalse(atP1.isEmpty());
    assertTrue(atP1.stream().allMatch(m -> m instanceof OFFlowAdd));
    OFFlowAdd subflow = (OFFlowAdd) atP1.get(0);
    assertEquals(Cookies.SUBFLOW, Cookies.kind(subflow.getCookie().getValue()));
    OFPacketOut out = (OFPacketOut) p1.readUntil(OFType.PACKET_OUT);
    assertEquals(OFPort.of(2), out.getInPort());
    assertTrue(awaitEvent("packet-in p1 port 2").contains("MPTCP"));
  }

  /**
   * three-path's client has one interface on each of p1, p2 and p3: the MP_CAPABLE and the two
   * MP_JOINs each get rules on the path from their own interface's switch to sv, and none on the
   * other client switches.
   */
  @Test
  void eachInterfaceOnItsOwnSwitchGetsThePathFromThatSwitch() throws Exception {
    FakeSwitch[] p = {ready(1), ready(2), ready(3)};
    FakeSwitch sv = ready(4);
    int[] ip = {CLIENT, Addresses.parseIpv4("10.0.2.11"), Addresses.parseIpv4("10.0.3.11")};
    for (int i = 0; i < 3; i++) {
      byte[] syn =
          i == 0
              ? capableSyn(ip[i], SERVER, 40001, 80)
              : joinSyn(ip[i], SERVER, 40001 + i, 80, 0x1234);
      p[i].send(packetIn(2, syn));
      List<OFMessage> atSv = new ArrayList<>();
      sv.barrierReply(sv.readUntil(OFType.BARRIER_REQUEST, atSv).getXid());
      List<OFMessage> atFirst = new ArrayList<>();
      p[i].readUntil(OFType.BARRIER_REQUEST, atFirst);
      int src = ip[i];
      for (List<OFMessage> rules : List.of(atSv, atFirst)) {
        assertTrue(
            rules.stream()
                .anyMatch(
                    m ->
                        m instanceof OFFlowAdd f
                            && f.getMatch().get(MatchField.IPV4_SRC) != null
                            && f.getMatch().get(MatchField.IPV4_SRC).getInt() == src),
            "interface " + (i + 1) + ": " + rules);
      }
      assertInstanceOf(OFPacketOut.class, p[i].readUntil(OFType.PACKET_OUT));
      String log = awaitEvent("packet-in p" + (i + 1) + " port 2");
      assertTrue(log.contains("MPTCP") && !log.contains("not a selected path"), log);
      for (int other = 0; other < 3; other++) {
        if (other != i) {
          assertNull(p[other].poll(100), "rules for interface " + (i + 1) + " on p" + (other + 1));
        }
      }
    }
  }

  @Test
  void portStatisticsArePolledAndFeedTheLinkLoad() throws Exception {
    FakeSwitch s = ready(1);
    s.dropStatsRequests = false;
    long tx = 0;
    for (int i = 0; i < 3; i++) {
      OFMessage m = s.readUntil(OFType.STATS_REQUEST);
      if (!(m instanceof OFPortStatsRequest req)) {
        i--; // the PORT_DESC request for link discovery
        continue;
      }
      assertEquals(OFPort.ANY, req.getPortNo());
      s.send(
          FakeSwitch.OF
              .buildPortStatsReply()
              .setXid(req.getXid())
              .setEntries(
                  List.of(
                      FakeSwitch.OF
                          .buildPortStatsEntry()
                          .setPortNo(OFPort.of(1))
                          .setTxBytes(U64.of(tx))
                          .setRxBytes(U64.of(0))
                          .build()))
              .build());
      tx += 1_000_000;
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
    while (plane.links().loadMbps(0) <= 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertTrue(plane.links().loadMbps(0) > 0, "load of link p1-sv from port statistics");
  }

  @Test
  void portDownIsReported() throws Exception {
    FakeSwitch s = ready(1);
    s.send(
        FakeSwitch.OF
            .buildPortStatus()
            .setXid(s.nextXid())
            .setReason(OFPortReason.MODIFY)
            .setDesc(
                FakeSwitch.OF
                    .buildPortDesc()
                    .setPortNo(OFPort.of(1))
                    .setName("p1-eth1")
                    .setHwAddr(MacAddress.of("02:00:00:00:aa:01"))
                    .setState(EnumSet.of(OFPortState.LINK_DOWN))
                    .build())
            .build());
    assertTrue(awaitEvent("port p1/1").contains("down"));
  }

  @Test
  void unknownSwitchGetsTheTableMissRulesOnly() throws Exception {
    FakeSwitch s = connect();
    List<OFMessage> after = s.handshake(0xff, 500);
    List<OFFlowAdd> adds =
        after.stream().filter(OFFlowAdd.class::isInstance).map(OFFlowAdd.class::cast).toList();
    assertEquals(3, adds.size(), "a switch outside the topology (yet): " + after);
    assertEquals(
        OfTranslator.withXid(new OfTranslator().flowAdd(LldpProbes.reflectRule(1)), 0),
        OfTranslator.withXid(adds.get(0), 0),
        "the reflect rule first");
    for (OFFlowAdd a : adds) {
      assertEquals(Cookies.of(Cookies.TABLE_MISS), a.getCookie().getValue());
    }
  }

  @Test
  void switchWithoutOpenFlow13IsRefused() throws Exception {
    FakeSwitch s = connect();
    assertEquals(OFType.HELLO, s.read().getType());
    s.send(OFFactories.getFactory(OFVersion.OF_10).buildHello().setXid(1).build());
    OFErrorMsg err = (OFErrorMsg) s.read();
    assertEquals(OFErrorType.HELLO_FAILED, err.getErrType());
    assertTrue(s.closedByPeer());
  }

  @Test
  void flowModsForSwitchesThatAreNotConnectedAreSkipped() throws Exception {
    // Only p1: the MPTCP rules for sv cannot be sent; the packet-out still follows p1's barrier.
    FakeSwitch p1 = ready(1);
    p1.send(packetIn(2, capableSyn(CLIENT, SERVER, 40002, 80)));
    OFMessage b = p1.readUntil(OFType.BARRIER_REQUEST);
    p1.barrierReply(b.getXid());
    assertNotNull(p1.readUntil(OFType.PACKET_OUT));
  }

  private static OFMessage packetIn(int port, byte[] frame) {
    return FakeSwitch.OF
        .buildPacketIn()
        .setXid(5)
        .setBufferId(OFBufferId.NO_BUFFER)
        .setTotalLen(frame.length)
        .setReason(OFPacketInReason.ACTION)
        .setTableId(TableId.of(0))
        .setCookie(U64.of(Cookies.of(Cookies.TABLE_MISS)))
        .setMatch(FakeSwitch.OF.buildMatch().setExact(MatchField.IN_PORT, OFPort.of(port)).build())
        .setData(frame)
        .build();
  }

  static byte[] arpRequest(long senderMac, int senderIp, int targetIp) {
    ByteBuffer b = ByteBuffer.allocate(42);
    b.put(new byte[] {-1, -1, -1, -1, -1, -1});
    putMac(b, senderMac);
    b.putShort((short) 0x0806);
    b.putShort((short) 1).putShort((short) 0x0800).put((byte) 6).put((byte) 4).putShort((short) 1);
    putMac(b, senderMac);
    b.putInt(senderIp);
    putMac(b, 0);
    b.putInt(targetIp);
    return b.array();
  }

  private static void putMac(ByteBuffer b, long mac) {
    for (int i = 5; i >= 0; i--) {
      b.put((byte) (mac >>> (8 * i)));
    }
  }

  /** SYN with MP_JOIN (RFC 8684: token, then the sender's nonce). */
  static byte[] joinSyn(int src, int dst, int srcPort, int dstPort, int token) {
    ByteBuffer opts = ByteBuffer.allocate(12);
    opts.put((byte) 30).put((byte) 12).put((byte) 0x10).put((byte) 1).putInt(token).putInt(7);
    return synWith(src, dst, srcPort, dstPort, opts.array());
  }

  /** SYN with MP_CAPABLE v1 (RFC 8684: no key in the SYN). */
  static byte[] capableSyn(int src, int dst, int srcPort, int dstPort) {
    return synWith(src, dst, srcPort, dstPort, new byte[] {30, 4, 0x01, 0x01});
  }

  private static byte[] synWith(int src, int dst, int srcPort, int dstPort, byte[] opts) {
    int tcpLen = 20 + opts.length;
    ByteBuffer b = ByteBuffer.allocate(14 + 20 + tcpLen);
    b.put(new byte[] {2, 0, 0, 0, 0, 1})
        .put(new byte[] {2, 0, 0, 0, 1, 11})
        .putShort((short) 0x0800);
    b.put((byte) 0x45).put((byte) 0).putShort((short) (20 + tcpLen)).putInt(0x40000000);
    b.put((byte) 64).put((byte) 6).putShort((short) 0).putInt(src).putInt(dst);
    b.putShort((short) srcPort).putShort((short) dstPort).putInt(1).putInt(0);
    b.put((byte) ((tcpLen / 4) << 4)).put((byte) 0x02).putShort((short) 64240).putInt(0);
    b.put(opts);
    return b.array();
  }
}
