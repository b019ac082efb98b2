package org.mpqoe.floodlight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.projectfloodlight.openflow.protocol.OFType.BARRIER_REQUEST;
import static org.projectfloodlight.openflow.protocol.OFType.FLOW_MOD;
import static org.projectfloodlight.openflow.protocol.OFType.PACKET_OUT;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import net.floodlightcontroller.core.FloodlightContext;
import net.floodlightcontroller.core.IFloodlightProviderService;
import net.floodlightcontroller.core.IListener.Command;
import net.floodlightcontroller.core.IOFMessageListener;
import net.floodlightcontroller.core.IOFSwitchListener;
import net.floodlightcontroller.core.PortChangeType;
import net.floodlightcontroller.core.internal.IOFSwitchService;
import net.floodlightcontroller.core.module.FloodlightModuleContext;
import net.floodlightcontroller.core.module.FloodlightModuleException;
import net.floodlightcontroller.core.types.NodePortTuple;
import net.floodlightcontroller.core.util.AppCookie;
import net.floodlightcontroller.linkdiscovery.ILinkDiscoveryService;
import net.floodlightcontroller.linkdiscovery.Link;
import net.floodlightcontroller.linkdiscovery.internal.LinkInfo;
import net.floodlightcontroller.restserver.IRestApiService;
import net.floodlightcontroller.restserver.RestApiServer;
import net.floodlightcontroller.restserver.RestletRoutable;
import net.floodlightcontroller.statistics.IStatisticsService;
import net.floodlightcontroller.statistics.SwitchPortBandwidth;
import net.floodlightcontroller.threadpool.IThreadPoolService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.control.Cookies;
import org.mpqoe.core.control.FlowRule;
import org.mpqoe.core.control.LinkDelayEstimator;
import org.mpqoe.core.control.LldpProbes;
import org.mpqoe.core.packet.Addresses;
import org.mpqoe.floodlight.Fakes.FakeSwitch;
import org.mpqoe.floodlight.web.MpqoeWebRoutable;
import org.mpqoe.ofplan.OfTranslator;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowRemovedReason;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPacketInReason;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortState;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U64;

/**
 * The module against fake Floodlight services, topology three-path: p1..p3 = dpid 1..3, sv = 4;
 * link 0 is p1 port 1 - sv port 1; the client's first interface (10.0.1.11) is on p1 port 2, the
 * server (10.0.1.1) on sv port 4.
 */
class MpqoeModuleTest {
  private static final OFFactory OF = OFFactories.getFactory(OFVersion.OF_13);
  private static final int CLIENT = Addresses.parseIpv4("10.0.1.11");
  private static final int SERVER = Addresses.parseIpv4("10.0.1.1");

  private final FakeSwitch p1 = new FakeSwitch(1);
  private final FakeSwitch p2 = new FakeSwitch(2);
  private final FakeSwitch p3 = new FakeSwitch(3);
  private final FakeSwitch sv = new FakeSwitch(4);
  private final FakeSwitch stranger = new FakeSwitch(99);
  private final List<String> calls = new ArrayList<>();
  private final Map<OFType, List<String>> listeners = new HashMap<>();
  private final Map<OFType, List<IOFMessageListener>> chain = new HashMap<>();
  private final List<IOFSwitchListener> switchListeners = new ArrayList<>();
  private final List<RestletRoutable> routables = new ArrayList<>();
  private final Map<NodePortTuple, SwitchPortBandwidth> bandwidth = new HashMap<>();
  private final Map<Link, LinkInfo> links = new HashMap<>();
  private final ScheduledExecutorService executor = new ScheduledThreadPoolExecutor(1);
  private final MpqoeModule module = new MpqoeModule();

  @AfterEach
  void stop() {
    module.stop();
    executor.shutdownNow();
  }

  private FloodlightModuleContext context(Map<String, String> params) {
    FloodlightModuleContext c = new FloodlightModuleContext();
    c.addService(
        IFloodlightProviderService.class,
        Fakes.proxy(
            IFloodlightProviderService.class,
            Map.of(
                "addOFMessageListener",
                a -> {
                  listeners
                      .computeIfAbsent((OFType) a[0], t -> new ArrayList<>())
                      .add(((IOFMessageListener) a[1]).getName());
                  chain
                      .computeIfAbsent((OFType) a[0], t -> new ArrayList<>())
                      .add((IOFMessageListener) a[1]);
                  return null;
                },
                "getListeners",
                a -> chain)));
    c.addService(
        IOFSwitchService.class,
        Fakes.switchService(
            Map.of(
                "addOFSwitchListener",
                a -> {
                  switchListeners.add((IOFSwitchListener) a[0]);
                  return null;
                }),
            p1,
            p2,
            p3,
            sv,
            stranger));
    c.addService(
        ILinkDiscoveryService.class,
        Fakes.proxy(
            ILinkDiscoveryService.class,
            Map.of(
                "getLinks",
                a -> links,
                "getLinkType",
                a -> net.floodlightcontroller.linkdiscovery.ILinkDiscovery.LinkType.DIRECT_LINK)));
    c.addService(
        net.floodlightcontroller.topology.ITopologyService.class,
        Fakes.proxy(
            net.floodlightcontroller.topology.ITopologyService.class,
            Map.of("addListener", a -> null)));
    c.addService(
        net.floodlightcontroller.devicemanager.IDeviceService.class,
        Fakes.proxy(
            net.floodlightcontroller.devicemanager.IDeviceService.class,
            Map.of("addListener", a -> null, "getAllDevices", a -> List.of())));
    c.addService(
        IStatisticsService.class,
        Fakes.proxy(
            IStatisticsService.class,
            Map.of(
                "setPortStatsPeriod",
                a -> {
                  calls.add("setPortStatsPeriod " + a[0]);
                  return "";
                },
                "collectStatistics",
                a -> {
                  calls.add("collectStatistics " + a[0]);
                  return null;
                },
                "getBandwidthConsumption",
                a -> bandwidth)));
    c.addService(
        IRestApiService.class,
        Fakes.proxy(
            IRestApiService.class,
            Map.of(
                "addRestletRoutable",
                a -> {
                  routables.add((RestletRoutable) a[0]);
                  return null;
                })));
    c.addService(
        IThreadPoolService.class,
        Fakes.proxy(IThreadPoolService.class, Map.of("getScheduledExecutor", a -> executor)));
    params.forEach((k, v) -> c.addConfigParam(module, k, v));
    return c;
  }

  private MpqoeModule started(Map<String, String> params) throws FloodlightModuleException {
    FloodlightModuleContext c = context(params);
    module.init(c);
    module.startUp(c);
    assertEquals(0, module.plane().topology().links().size(), "no link before discovery");
    discover();
    module.rebuild();
    assertEquals(
        List.of("EXTRA_SWITCH: switch 0000000000000063 is connected but not in three-path"),
        module.plane().topologyMismatches().stream().map(Object::toString).toList(),
        "cabled as described; the stranger is reported");
    assertEquals(
        module.plane().topology().links().size(),
        org.mpqoe.core.topology.TopologyLoader.load("three-path").links().size());
    p1.clear();
    p2.clear();
    p3.clear();
    sv.clear();
    stranger.clear();
    return module;
  }

  /** Floodlight's fakes report the ports and links of three-path, as LLDP would find them. */
  private void discover() {
    org.mpqoe.core.topology.Topology t = org.mpqoe.core.topology.TopologyLoader.load("three-path");
    Map<Long, FakeSwitch> byDpid = Map.of(1L, p1, 2L, p2, 3L, p3, 4L, sv);
    Map<Long, java.util.TreeSet<Integer>> ports = new HashMap<>();
    for (org.mpqoe.core.topology.Link l : t.links()) {
      ports.computeIfAbsent(l.a().dpid(), d -> new java.util.TreeSet<>()).add(l.portA());
      ports.computeIfAbsent(l.b().dpid(), d -> new java.util.TreeSet<>()).add(l.portB());
      for (boolean forward : List.of(true, false)) {
        long src = forward ? l.a().dpid() : l.b().dpid();
        long dst = forward ? l.b().dpid() : l.a().dpid();
        int sp = forward ? l.portA() : l.portB();
        int dp = forward ? l.portB() : l.portA();
        links.put(
            new Link(
                DatapathId.of(src), OFPort.of(sp), DatapathId.of(dst), OFPort.of(dp), U64.ZERO),
            new LinkInfo(new java.util.Date(), new java.util.Date(), null));
      }
    }
    t.hosts()
        .forEach(
            h ->
                h.interfaces()
                    .forEach(
                        i ->
                            ports
                                .computeIfAbsent(
                                    i.attachment().dpid(), d -> new java.util.TreeSet<>())
                                .add(i.port())));
    ports.forEach(
        (dpid, numbers) ->
            numbers.forEach(
                n ->
                    byDpid
                        .get(dpid)
                        .ports
                        .add(
                            OF.buildPortDesc()
                                .setPortNo(OFPort.of(n))
                                .setName("s" + dpid + "-eth" + n)
                                .setCurrSpeed(10_000_000)
                                .setState(java.util.Set.of())
                                .setConfig(java.util.Set.of())
                                .build())));
  }

  private MpqoeModule started() throws FloodlightModuleException {
    return started(Map.of("topology", "three-path", "algorithm", "exact", "statsIntervalS", "3"));
  }

  private static OFMessage packetIn(int port, byte[] frame) {
    return OF.buildPacketIn()
        .setBufferId(OFBufferId.NO_BUFFER)
        .setTotalLen(frame.length)
        .setReason(OFPacketInReason.NO_MATCH)
        .setTableId(TableId.of(0))
        .setCookie(U64.ZERO)
        .setMatch(OF.buildMatch().setExact(MatchField.IN_PORT, OFPort.of(port)).build())
        .setData(frame)
        .build();
  }

  @Test
  void initAndStartUpWireTheModuleIntoFloodlight() throws Exception {
    started();
    assertEquals("three-path", module.plane().topology().name());
    assertEquals("exact", module.settings().config().algorithm());
    assertEquals(List.of("setPortStatsPeriod 3", "collectStatistics true"), calls);
    assertEquals(2, MpqoeModule.collectorPeriod(1), "Floodlight's collector needs 2 s or more");
    assertEquals(5, MpqoeModule.collectorPeriod(5));
    assertEquals(
        Map.of(
            OFType.PACKET_IN, List.of("mpqoe", "mpqoe-lldp"),
            OFType.FLOW_REMOVED, List.of("mpqoe"),
            OFType.ERROR, List.of("mpqoe")),
        listeners);
    // mpqoe after Floodlight's discovery and device manager, before Forwarding; its LLDP tap before
    // link discovery (which may stop the probes), and never stopping anything.
    IOFMessageListener routing = chain.get(OFType.PACKET_IN).get(0);
    IOFMessageListener tap = chain.get(OFType.PACKET_IN).get(1);
    assertTrue(routing.isCallbackOrderingPrereq(OFType.PACKET_IN, "linkdiscovery"));
    assertTrue(routing.isCallbackOrderingPostreq(OFType.PACKET_IN, "forwarding"));
    assertTrue(tap.isCallbackOrderingPostreq(OFType.PACKET_IN, "linkdiscovery"));
    assertFalse(tap.isCallbackOrderingPrereq(OFType.PACKET_IN, "linkdiscovery"));
    assertEquals(
        net.floodlightcontroller.core.IListener.Command.CONTINUE,
        tap.receive(
            sv.sw,
            packetIn(1, FloodlightLldpTest.probe(0x88cc, 1, 1, 5)),
            new FloodlightContext()));
    assertEquals(
        net.floodlightcontroller.core.IListener.Command.CONTINUE,
        tap.receive(sv.sw, packetIn(1, Fakes.arpRequest(CLIENT, SERVER)), null));
    assertEquals(List.of(module), switchListeners);
    assertEquals(1, routables.size());
    assertInstanceOf(MpqoeWebRoutable.class, routables.get(0));
    assertEquals("/wm/mpqoe", routables.get(0).basePath());
    assertEquals("mpqoe", AppCookie.getAppName(MpqoeModule.APP_ID));
    assertEquals(0x4D5, MpqoeModule.APP_ID);
    assertEquals(List.of(IMpqoeService.class), module.getModuleServices());
    assertSame(module, module.getServiceImpls().get(IMpqoeService.class));
  }

  @Test
  void badParametersOrTopologiesStopFloodlightsStart() {
    FloodlightModuleException e =
        assertThrows(FloodlightModuleException.class, () -> module.init(context(Map.of())));
    assertTrue(
        e.getMessage()
            .startsWith(
                "mpqoe: invalid mpqoe parameters: 'servers' is required without a topology"),
        e.getMessage());
    e =
        assertThrows(
            FloodlightModuleException.class,
            () -> module.init(context(Map.of("topology", "/no/such.json"))));
    assertTrue(e.getMessage().startsWith("mpqoe: unknown topology '/no/such.json'"));
  }

  @Test
  void packetInsGoAfterFloodlightsLearnersAndBeforeForwarding() {
    for (String n : List.of("linkdiscovery", "topology", "devicemanager")) {
      assertTrue(module.isCallbackOrderingPrereq(OFType.PACKET_IN, n), n);
      assertFalse(module.isCallbackOrderingPostreq(OFType.PACKET_IN, n), n);
    }
    assertTrue(module.isCallbackOrderingPostreq(OFType.PACKET_IN, "forwarding"));
    assertFalse(module.isCallbackOrderingPrereq(OFType.PACKET_IN, "forwarding"));
    assertFalse(module.isCallbackOrderingPrereq(OFType.FLOW_REMOVED, "topology"));
    assertFalse(module.isCallbackOrderingPostreq(OFType.FLOW_REMOVED, "forwarding"));
  }

  @Test
  void anActivatedSwitchGetsTheCoresRulesButNotItsTableMiss() throws Exception {
    started();
    module.switchActivated(DatapathId.of(4));
    List<FlowRule> core = module.plane().switchConnected(4);
    long misses = core.stream().filter(r -> Cookies.kind(r.cookie()) == Cookies.TABLE_MISS).count();
    assertEquals(2, misses, "everything, and SYNs");
    List<OFMessage> mods = sv.ofType(FLOW_MOD);
    int kept = (int) (core.size() - misses);
    assertEquals(kept + 2, mods.size(), "the core's rules but the table miss + reflect + a trap");
    for (OFMessage m : mods.subList(0, kept)) {
      long cookie = ((OFFlowAdd) m).getCookie().getValue();
      assertTrue(Cookies.isOurs(cookie));
      assertTrue(Cookies.kind(cookie) != Cookies.TABLE_MISS);
    }
    assertEquals(
        OfTranslator.withXid(new OfTranslator().flowAdd(LldpProbes.reflectRule(4)), 0),
        OfTranslator.withXid(mods.get(kept), 0),
        "the reflect rule, as the standalone runtime's");
    OFFlowAdd trap = (OFFlowAdd) mods.get(mods.size() - 1);
    assertEquals(OFPort.of(4), trap.getMatch().get(MatchField.IN_PORT), "the server's port");
    assertEquals(BARRIER_REQUEST, sv.types().get(sv.types().size() - 1));

    // The switch the descriptor does not have is in the topology (a mismatch) without rules of the
    // core or host ports: it gets only the reflect rule, so that its links' delays are measured.
    module.switchActivated(DatapathId.of(99));
    assertEquals(List.of(FLOW_MOD, BARRIER_REQUEST), stranger.types());
    assertEquals(
        OfTranslator.withXid(new OfTranslator().flowAdd(LldpProbes.reflectRule(99)), 0),
        OfTranslator.withXid(stranger.written.get(0), 0));
  }

  @Test
  void mptcpHandshakesAreRoutedAndStoppedEverythingElseContinues() throws Exception {
    started();
    Command c =
        module.receive(p1.sw, packetIn(2, Fakes.capableSyn(CLIENT, SERVER, 40001, 80)), null);
    assertEquals(Command.STOP, c);
    // At the server edge: both directions and the copy of the server's SYN/ACK, then a barrier.
    assertEquals(List.of(FLOW_MOD, FLOW_MOD, FLOW_MOD, BARRIER_REQUEST), sv.types().subList(0, 4));
    // The first hop's rules come last (the plan applier's order): nothing until the server
    // edge confirmed its rules, then its flow mods, a barrier and, behind it on the same
    // connection, the packet-out of the held SYN.
    assertEquals(List.of(), p1.types(), "the first hop waits for the other switches' barriers");
    sv.answerBarriers();
    List<OFType> first = p1.types();
    assertTrue(first.containsAll(List.of(FLOW_MOD, BARRIER_REQUEST)), first.toString());
    assertEquals(
        List.of(BARRIER_REQUEST, PACKET_OUT), first.subList(first.size() - 2, first.size()));
    p1.answerBarriers();
    assertEquals(first, p1.types(), "nothing more once the first hop's barrier completed");
    assertEquals(1, module.plane().router().connections().size());

    p1.clear();
    assertEquals(
        Command.CONTINUE,
        module.receive(p1.sw, packetIn(2, Fakes.arpRequest(CLIENT, SERVER)), null),
        "ARP is Forwarding's");
    assertEquals(
        Command.CONTINUE,
        module.receive(p1.sw, packetIn(2, Fakes.plainSyn(CLIENT, SERVER, 40002, 80)), null),
        "plain TCP is Forwarding's");
    assertEquals(
        Command.CONTINUE,
        module.receive(stranger.sw, packetIn(2, Fakes.capableSyn(CLIENT, SERVER, 40003, 80)), null),
        "a switch outside the descriptor is Floodlight's");
    assertEquals(List.of(), p1.types());
    assertEquals(List.of(), stranger.types());
  }

  @Test
  void aJoinWithoutAPathIsDroppedNotLeftToForwarding() throws Exception {
    started();
    // Only p1 > sv (25 ms) is fast enough: the client gets one path for three interfaces.
    module.plane().rest().handle("PUT", "/mpqoe/config", "{\"thrDelayMs\":30}");
    module.receive(p1.sw, packetIn(2, Fakes.capableSyn(CLIENT, SERVER, 40001, 80)), null);
    int second = Addresses.parseIpv4("10.0.2.11");
    Command c =
        module.receive(p2.sw, packetIn(2, Fakes.joinSyn(second, SERVER, 40002, 80, 7)), null);
    assertEquals(Command.STOP, c, "a refused join must not reach Forwarding");
    assertEquals(List.of(), p2.types());
    assertEquals(1, module.plane().router().connections().iterator().next().subflows().size());
  }

  @Test
  void onlyExpiriesOfOurRulesEndSubflows() throws Exception {
    started();
    module.receive(p1.sw, packetIn(2, Fakes.capableSyn(CLIENT, SERVER, 40001, 80)), null);
    long cookie =
        module.plane().router().connections().iterator().next().subflows().get(0).cookie();
    OFMessage deleted = removed(cookie, OFFlowRemovedReason.DELETE);
    assertEquals(Command.CONTINUE, module.receive(p1.sw, deleted, null));
    assertEquals(1, module.plane().router().connections().size());
    OFMessage foreign = removed(0x20000000000001L, OFFlowRemovedReason.IDLE_TIMEOUT);
    assertEquals(Command.CONTINUE, module.receive(p1.sw, foreign, null));
    assertEquals(1, module.plane().router().connections().size());
    module.receive(p1.sw, removed(cookie, OFFlowRemovedReason.IDLE_TIMEOUT), null);
    assertEquals(0, module.plane().router().connections().size());
  }

  private static OFMessage removed(long cookie, OFFlowRemovedReason reason) {
    return OF.buildFlowRemoved()
        .setCookie(U64.of(cookie))
        .setReason(reason)
        .setTableId(TableId.of(0))
        .setMatch(OF.buildMatch().build())
        .build();
  }

  @Test
  void aLinkGoingDownMovesItsSubflows() throws Exception {
    started();
    module.receive(p1.sw, packetIn(2, Fakes.capableSyn(CLIENT, SERVER, 40001, 80)), null);
    sv.clear();
    p1.clear();
    OFPortDesc down =
        OF.buildPortDesc()
            .setPortNo(OFPort.of(1))
            .setName("s1-eth1")
            .setState(java.util.Set.of(OFPortState.LINK_DOWN))
            .build();
    module.switchPortChanged(DatapathId.of(1), down, PortChangeType.DOWN);
    assertTrue(
        module
            .plane()
            .rest()
            .handle("GET", "/mpqoe/topology", null)
            .json()
            .contains("\"up\":false"));
    assertTrue(
        p1.types().contains(FLOW_MOD) || sv.types().contains(FLOW_MOD),
        "the subflow on p1-sv was changed: " + p1.types() + " " + sv.types());
  }

  @Test
  void theLinkStatePollFeedsPortRatesAndOptionallyLldpLatencies() throws Exception {
    started(Map.of("topology", "three-path", "useLldpLatency", "true"));
    NodePortTuple p1Port1 = new NodePortTuple(DatapathId.of(1), OFPort.of(1));
    bandwidth.put(p1Port1, sample(1, 1, 0));
    module.pollLinkState();
    Thread.sleep(20);
    bandwidth.put(p1Port1, sample(1, 1, 1_500_000));
    module.pollLinkState();
    // Counters are whole bytes: over a 20 ms period that rounds the rate by up to 200 bit/s.
    assertEquals(1.5, module.plane().links().loadMbps(0), 1e-3);

    // Every poll times a barrier to each switch: their round trips are the control channels'.
    p1.answerBarriers();
    sv.answerBarriers();
    double rttP1 = module.plane().links().controlRtt(1);
    double rttSv = module.plane().links().controlRtt(4);
    assertTrue(rttP1 >= 0 && rttP1 < 1000 && rttSv >= 0 && rttSv < 1000, rttP1 + " " + rttSv);

    // Floodlight's probes on p1:1 - sv:1, 30 ms one way and 40 back; a probe of a port that is no
    // link of the topology (p1:2 is the client's) counts for nothing.
    long now = 1_000_000;
    long nowNanos = now * 1_000_000;
    for (int i = 0; i < LinkDelayEstimator.WINDOW; i++) {
      module.lldpSample(
          sv.sw, lldpIn(1, FloodlightLldpTest.probe(0x88cc, 1, 1, now - 30)), nowNanos);
      module.lldpSample(
          p1.sw, lldpIn(1, FloodlightLldpTest.probe(0x88cc, 4, 1, now - 40)), nowNanos);
    }
    module.lldpSample(sv.sw, lldpIn(2, FloodlightLldpTest.probe(0x88cc, 1, 2, now - 1)), nowNanos);
    double expected = 30 - rttP1 / 2 - rttSv / 2;
    assertEquals(expected, module.plane().links().delayEstimate(1, 1, 4, 1), 1e-9);
    assertTrue(Double.isNaN(module.plane().links().delayEstimate(1, 2, 4, 2)));
    module.pollLinkState();
    assertEquals(expected, module.plane().links().snapshot().delayMs(0), 1e-9);
    assertEquals(50.0, module.plane().links().snapshot().delayMs(1), 1e-9, "still unknown");
  }

  @Test
  void lldpLatenciesAreIgnoredByDefault() throws Exception {
    started();
    module.pollLinkState();
    p1.answerBarriers();
    sv.answerBarriers();
    long now = 1_000_000;
    for (int i = 0; i < LinkDelayEstimator.WINDOW; i++) {
      module.lldpSample(
          sv.sw, lldpIn(1, FloodlightLldpTest.probe(0x88cc, 1, 1, now - 30)), now * 1_000_000);
    }
    module.pollLinkState();
    assertEquals(25.0, module.plane().links().snapshot().delayMs(0), 1e-9);
  }

  @Test
  void reflectProbesGoOutOfEveryUpPortOfTheTopologysSwitchesSpreadOverTheInterval()
      throws Exception {
    started();
    OFPortDesc down = p2.ports.get(0);
    p2.ports.set(0, down.createBuilder().setState(java.util.Set.of(OFPortState.LINK_DOWN)).build());
    List<LldpProbes.Timed> round = module.probeRound();
    List<LldpProbes.Port> expected = new ArrayList<>();
    for (FakeSwitch s : List.of(p1, p2, p3, sv)) {
      s.ports.stream()
          .filter(p -> p != p2.ports.get(0))
          .map(p -> p.getPortNo().getPortNumber())
          .sorted()
          .forEach(n -> expected.add(new LldpProbes.Port(s.dpid, n)));
    }
    assertEquals(expected, round.stream().map(LldpProbes.Timed::port).toList());
    long slot = 5_000_000_000L / expected.size();
    for (int i = 0; i < round.size(); i++) {
      assertEquals(i * slot, round.get(i).delayNanos());
      assertEquals(LldpProbes.Kind.REFLECT, round.get(i).kind());
    }
    // The first goes at once, the others when their time comes.
    List<OFMessage> out = p1.ofType(PACKET_OUT);
    assertEquals(1, out.size());
    org.projectfloodlight.openflow.protocol.OFPacketOut po =
        (org.projectfloodlight.openflow.protocol.OFPacketOut) out.get(0);
    LldpProbes.Port first = expected.get(0);
    assertEquals(List.of(OF.actions().output(OFPort.of(first.port()), 0xffff)), po.getActions());
    assertEquals(Optional.of(LldpProbes.Kind.REFLECT), LldpProbes.kind(po.getData()));
    assertEquals(
        new LldpProbes.Probe(1, first.port(), LldpProbes.parse(po.getData()).get().sentNanos()),
        LldpProbes.parse(po.getData()).get());
    assertEquals(List.of(), sv.ofType(PACKET_OUT), "not yet");
  }

  @Test
  void reflectedProbesAreSamplesAndStoppedFloodlightsProbesGoOn() throws Exception {
    started();
    IOFMessageListener tap = chain.get(OFType.PACKET_IN).get(1);
    long sent = System.nanoTime();
    byte[] back = LldpProbes.frame(LldpProbes.Kind.REFLECTED, 1, 1, sent);
    byte[] unreflected = LldpProbes.frame(LldpProbes.Kind.REFLECT, 1, 1, sent);
    assertEquals(Command.STOP, tap.receive(p1.sw, lldpIn(1, back), new FloodlightContext()));
    assertEquals(Command.STOP, tap.receive(sv.sw, lldpIn(1, unreflected), null));
    assertEquals(
        Command.CONTINUE,
        tap.receive(sv.sw, lldpIn(1, FloodlightLldpTest.probe(0x88cc, 1, 1, 5)), null));
    assertEquals(Command.CONTINUE, tap.receive(sv.sw, lldpIn(1, Fakes.arpRequest(1, 2)), null));

    // Fed as Floodlight feeds it: p1:1 - sv:1 of 20 ms one way, Floodlight's probes 30 ms from p1
    // to sv and 40 back (its stamps whole ms), mpqoe's reflected probes 55 ms at either end.
    long nowMs = 2_000_000;
    for (int i = 0; i < LinkDelayEstimator.WINDOW; i++) {
      assertTrue(Double.isNaN(module.plane().links().delayEstimate(1, 1, 4, 1)));
      long t = (nowMs + 1000L * i) * 1_000_000;
      module.lldpIn(
          sv.sw, lldpIn(1, FloodlightLldpTest.probe(0x88cc, 1, 1, nowMs + 1000L * i - 30)), t);
      module.lldpIn(
          p1.sw, lldpIn(1, FloodlightLldpTest.probe(0x88cc, 4, 1, nowMs + 1000L * i - 40)), t);
      assertEquals(
          Command.STOP,
          module.lldpIn(
              p1.sw,
              lldpIn(1, LldpProbes.frame(LldpProbes.Kind.REFLECTED, 1, 1, t - 55_000_000)),
              t));
      assertEquals(
          Command.STOP,
          module.lldpIn(
              sv.sw,
              lldpIn(1, LldpProbes.frame(LldpProbes.Kind.REFLECTED, 4, 1, t - 55_000_000)),
              t));
    }
    assertEquals(20.0, module.plane().links().delayEstimate(1, 1, 4, 1), 1e-9);
  }

  private static OFPacketIn lldpIn(int port, byte[] frame) {
    return (OFPacketIn) packetIn(port, frame);
  }

  private static SwitchPortBandwidth sample(long dpid, int port, long txBps) {
    return SwitchPortBandwidth.of(
        DatapathId.of(dpid),
        OFPort.of(port),
        U64.of(10_000_000),
        U64.ZERO,
        U64.of(txBps),
        U64.ZERO,
        U64.ZERO);
  }

  @Test
  void theRestAddressIsFloodlightsAndBeyondLoopbackWritesNeedTheToken() throws Exception {
    FloodlightModuleContext none = new FloodlightModuleContext();
    assertEquals("0.0.0.0", MpqoeModule.restHost(none), "no host: every interface");
    FloodlightModuleContext local = new FloodlightModuleContext();
    local.addConfigParam(new RestApiServer(), "host", "127.0.0.1");
    assertEquals("127.0.0.1", MpqoeModule.restHost(local));
    started();
    assertTrue(module.restAccess().tokenRequired(), "the test context sets no REST host");
    assertEquals(null, module.restAccess().token());
  }
}
