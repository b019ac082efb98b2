package org.mpqoe.floodlight;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import net.floodlightcontroller.core.FloodlightContext;
import net.floodlightcontroller.core.IFloodlightProviderService;
import net.floodlightcontroller.core.IOFMessageListener;
import net.floodlightcontroller.core.IOFSwitch;
import net.floodlightcontroller.core.IOFSwitchListener;
import net.floodlightcontroller.core.PortChangeType;
import net.floodlightcontroller.core.internal.FloodlightProvider;
import net.floodlightcontroller.core.internal.IOFSwitchService;
import net.floodlightcontroller.core.module.FloodlightModuleContext;
import net.floodlightcontroller.core.module.FloodlightModuleException;
import net.floodlightcontroller.core.module.IFloodlightModule;
import net.floodlightcontroller.core.module.IFloodlightService;
import net.floodlightcontroller.core.util.AppCookie;
import net.floodlightcontroller.devicemanager.IDeviceService;
import net.floodlightcontroller.linkdiscovery.ILinkDiscoveryService;
import net.floodlightcontroller.restserver.IRestApiService;
import net.floodlightcontroller.restserver.RestApiServer;
import net.floodlightcontroller.statistics.IStatisticsService;
import net.floodlightcontroller.statistics.SwitchPortBandwidth;
import net.floodlightcontroller.threadpool.IThreadPoolService;
import net.floodlightcontroller.topology.ITopologyService;
import net.floodlightcontroller.util.OFMessageUtils;
import org.mpqoe.core.control.Cookies;
import org.mpqoe.core.control.FlowPlan;
import org.mpqoe.core.control.FlowRule;
import org.mpqoe.core.control.LldpProbes;
import org.mpqoe.core.control.MptcpControlPlane;
import org.mpqoe.core.control.Reaction;
import org.mpqoe.core.control.RestAccess;
import org.mpqoe.core.topology.DescriptorCheck;
import org.mpqoe.core.topology.NetworkView;
import org.mpqoe.core.topology.SwitchNode;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyBuilder;
import org.mpqoe.core.topology.TopologyException;
import org.mpqoe.core.topology.TopologyLoader;
import org.mpqoe.floodlight.web.MpqoeWebRoutable;
import org.mpqoe.ofplan.HostedRuntime;
import org.mpqoe.ofplan.OfEvents;
import org.mpqoe.ofplan.OfTranslator;
import org.mpqoe.ofplan.PlanApplier;
import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowMod;
import org.projectfloodlight.openflow.protocol.OFFlowRemoved;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * mpqoe as a Floodlight module: translates Floodlight's events into calls of the core's {@link
 * MptcpControlPlane} and applies its plans through the plan applier both runtimes share; every
 * decision is the core's, the applier's or, where Floodlight owns the rest of the switches, {@link
 * HostedRuntime}'s. This class and the few others that name Floodlight types are wiring.
 *
 * <ul>
 *   <li>The topology is what Floodlight discovered ({@link DiscoveredTopology}: switches and ports,
 *       LLDP links, hosts from the device manager), rebuilt on one thread whenever Floodlight's
 *       topology or a host changes (events within {@link #REBUILD_DELAY_MS} coalesced) and handed
 *       to the core ({@link MptcpControlPlane#replaceTopology}), whose repair plan is applied. The
 *       {@code topology} parameter, when given, is an overlay (names, hosts, capacities, delays)
 *       checked against what was discovered; mismatches are logged when they change and shown by
 *       REST. No rule goes over a link that was not discovered.
 *   <li>PACKET_IN (after linkdiscovery, topology, devicemanager; before forwarding): MPTCP
 *       handshakes are routed by mpqoe and stopped; everything else (ARP, ICMP, plain TCP) goes on
 *       to Forwarding.
 *   <li>A switch of the topology that becomes active (or that a rebuild adds) gets the core's
 *       proactive rules (host delivery, label rules, live subflows), not its table-miss entry:
 *       Floodlight installs its own. Its host ports also get SYN traps, so that Forwarding's flows
 *       cannot hide MPTCP handshakes from mpqoe.
 *   <li>Port status re-routes subflows off a failed link; FLOW_REMOVED (expiry) ends subflows.
 *   <li>Floodlight's StatisticsCollector polls port counters every statsIntervalS (at least 2 s);
 *       every second its newest port rates become link loads.
 *   <li>Link delays: every switch of the topology gets the reflect rule of LLDP probes, and every 5
 *       s (the standalone runtime's default probe interval) mpqoe sends a reflect probe out of each
 *       of their up ports. Its reflected probes, stopped before Floodlight's link discovery, and
 *       Floodlight's own one-way probes, read there, feed the core's link delay estimator (a timed
 *       barrier to every switch each second covers a link without reflected probes); with
 *       useLldpLatency its delays replace the descriptor's.
 *   <li>REST: {@code /wm/mpqoe/{topology,connections,clients,config}}, the standalone runtime's
 *       API.
 * </ul>
 */
public class MpqoeModule
    implements IFloodlightModule, IOFMessageListener, IOFSwitchListener, IMpqoeService {
  private static final Logger LOG = LoggerFactory.getLogger(MpqoeModule.class);

  /** Floodlight's 12-bit application id of mpqoe's cookies: the top bits of {@link Cookies#APP}. */
  static final long APP_ID = Cookies.APP >>> 52;

  /** How long a rebuild waits after the first topology or device event, to take in the rest. */
  static final long REBUILD_DELAY_MS = 150;

  private IFloodlightProviderService provider;
  private IOFSwitchService switchService;
  private ILinkDiscoveryService linkDiscovery;
  private IStatisticsService statistics;
  private IRestApiService restApi;
  private IThreadPoolService threadPool;
  private ITopologyService topologyService;
  private IDeviceService deviceService;
  private DiscoveredTopology discovered;
  private Optional<Topology> overlay = Optional.empty();
  private final ScheduledExecutorService rebuilder =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "mpqoe-topology");
            t.setDaemon(true);
            return t;
          });
  private final AtomicBoolean rebuildPending = new AtomicBoolean();
  private List<DescriptorCheck.Mismatch> loggedMismatches = List.of();

  private MpqoeSettings settings;
  private RestAccess restAccess;
  private MptcpControlPlane plane;
  private FloodlightSwitches switches;
  private PlanApplier applier;
  private final PortBandwidthFeed bandwidth = new PortBandwidthFeed();
  private final AtomicBoolean chainLogged = new AtomicBoolean();
  private ScheduledFuture<?> poller;
  private ScheduledFuture<?> prober;

  // ---------------------------------------------------------------------------- IFloodlightModule

  @Override
  public Collection<Class<? extends IFloodlightService>> getModuleServices() {
    return List.of(IMpqoeService.class);
  }

  @Override
  public Map<Class<? extends IFloodlightService>, IFloodlightService> getServiceImpls() {
    return Map.of(IMpqoeService.class, this);
  }

  @Override
  public Collection<Class<? extends IFloodlightService>> getModuleDependencies() {
    return List.of(
        IFloodlightProviderService.class,
        IOFSwitchService.class,
        ILinkDiscoveryService.class,
        IStatisticsService.class,
        IRestApiService.class,
        IThreadPoolService.class,
        ITopologyService.class,
        IDeviceService.class);
  }

  /**
   * Reads the parameters and the descriptor overlay, if any, and builds the control plane on what
   * is known before anything was discovered: no links (and the overlay's switches and hosts).
   */
  @Override
  public void init(FloodlightModuleContext context) throws FloodlightModuleException {
    provider = context.getServiceImpl(IFloodlightProviderService.class);
    switchService = context.getServiceImpl(IOFSwitchService.class);
    linkDiscovery = context.getServiceImpl(ILinkDiscoveryService.class);
    statistics = context.getServiceImpl(IStatisticsService.class);
    restApi = context.getServiceImpl(IRestApiService.class);
    threadPool = context.getServiceImpl(IThreadPoolService.class);
    topologyService = context.getServiceImpl(ITopologyService.class);
    deviceService = context.getServiceImpl(IDeviceService.class);
    Map<String, String> params = context.getConfigParams(this);
    try {
      settings = MpqoeSettings.parse(params == null ? Map.of() : params);
    } catch (IllegalArgumentException e) {
      throw new FloodlightModuleException("mpqoe: " + e.getMessage(), e);
    }
    try {
      overlay =
          settings.topology() == null
              ? Optional.empty()
              : Optional.of(TopologyLoader.load(settings.topology()));
    } catch (TopologyException e) {
      throw new FloodlightModuleException("mpqoe: " + e.getMessage(), e);
    }
    Topology topology =
        TopologyBuilder.build(
                new NetworkView(List.of(), List.of(), List.of()), overlay, settings.discovery())
            .topology();
    plane =
        new MptcpControlPlane(
            topology,
            settings.config(),
            overlay.isPresent()
                ? MptcpControlPlane.Source.DESCRIPTOR_AND_DISCOVERED
                : MptcpControlPlane.Source.DISCOVERED);
    plane.rest().onChange(line -> LOG.info("mpqoe: {}", line));
    restAccess = RestAccess.of(restHost(context), settings.restToken());
    if (restAccess.tokenRequired() && settings.restToken() == null) {
      LOG.warn(
          "mpqoe: Floodlight's REST server listens beyond loopback and no restToken is set:"
              + " REST writes (PUT /wm/mpqoe/config) are refused");
    }
    switches = new FloodlightSwitches(switchService, this::inTopology);
    applier = new PlanApplier(new OfTranslator(), switches);
    // Before StatisticsCollector starts (its startUp runs after this init): its polling period.
    statistics.setPortStatsPeriod(collectorPeriod(settings.config().statsIntervalS()));
    AppCookie.registerApp(APP_ID, "mpqoe");
    // SLF4J 1.6 (Floodlight's lib/) has no varargs: three or more arguments go as an Object[].
    LOG.info("mpqoe: {}", settings.describe());
  }

  /** Listeners, statistics, the periodic feed and the REST routes. */
  @Override
  public void startUp(FloodlightModuleContext context) {
    provider.addOFMessageListener(OFType.PACKET_IN, this);
    provider.addOFMessageListener(OFType.FLOW_REMOVED, this);
    provider.addOFMessageListener(OFType.ERROR, this);
    switchService.addOFSwitchListener(this);
    statistics.collectStatistics(true);
    // Every second, whatever the collector's period: new samples reach the core within 1 s.
    poller =
        threadPool
            .getScheduledExecutor()
            .scheduleAtFixedRate(this::pollLinkState, 1, 1, TimeUnit.SECONDS);
    long probeInterval = settings.config().discovery().lldpInterval().toNanos();
    prober =
        threadPool
            .getScheduledExecutor()
            .scheduleAtFixedRate(
                this::probeRound, probeInterval, probeInterval, TimeUnit.NANOSECONDS);
    restApi.addRestletRoutable(new MpqoeWebRoutable());
    provider.addOFMessageListener(OFType.PACKET_IN, lldpTap);
    discovered =
        new DiscoveredTopology(
            switchService,
            linkDiscovery,
            deviceService,
            (sd, sp, dd, dp) -> plane.links().delayEstimate(sd, sp, dd, dp));
    discovered.onChange(topologyService, this::topologyChanged);
  }

  // ---------------------------------------------------------------------------- topology

  /** A topology or device event: one rebuild soon, however many events come meanwhile. */
  void topologyChanged() {
    if (rebuildPending.compareAndSet(false, true)) {
      rebuilder.schedule(this::rebuild, REBUILD_DELAY_MS, TimeUnit.MILLISECONDS);
    }
  }

  /**
   * Builds the topology from what Floodlight discovered, hands it to the core and applies the
   * repair plan; switches whose host ports changed get their SYN traps. On the rebuild thread.
   */
  void rebuild() {
    rebuildPending.set(false);
    try {
      Topology before = plane.topology();
      TopologyBuilder.Built b = discovered.build(overlay, settings.discovery());
      if (!b.mismatches().equals(loggedMismatches)) {
        loggedMismatches = b.mismatches();
        if (b.mismatches().isEmpty() && overlay.isPresent()) {
          LOG.info("mpqoe: the network matches descriptor {}", before.name());
        }
        for (DescriptorCheck.Mismatch m : b.mismatches()) {
          LOG.warn("mpqoe: network differs from the descriptor: {}", m);
        }
      }
      FlowPlan plan = plane.replaceTopology(b.topology(), b.mismatches());
      Topology after = plane.topology();
      if (after != before) {
        LOG.info(
            "mpqoe: topology {}: {}; {} removal(s), {} install(s)",
            new Object[] {after.name(), after, plan.removals().size(), plan.installs().size()});
      }
      applier.apply(plan);
      for (long dpid : HostedRuntime.switchesNeedingTraps(before, after)) {
        installTraps(dpid, List.of());
      }
    } catch (RuntimeException e) {
      LOG.error("mpqoe: topology rebuild failed; the previous topology stays", e);
    }
  }

  // ---------------------------------------------------------------------------- IMpqoeService

  @Override
  public MptcpControlPlane plane() {
    return plane;
  }

  @Override
  public MpqoeSettings settings() {
    return settings;
  }

  @Override
  public RestAccess restAccess() {
    return restAccess;
  }

  /**
   * The address Floodlight's REST server binds, as RestApiServer reads it: its {@code host}, else
   * FloodlightProvider's {@code openflowhost}, else every interface.
   */
  static String restHost(FloodlightModuleContext context) {
    String host = context.getConfigParams(RestApiServer.class).get("host");
    if (host == null) {
      host = context.getConfigParams(FloodlightProvider.class).get("openflowhost");
    }
    return host == null ? "0.0.0.0" : host;
  }

  // ---------------------------------------------------------------------------- IOFMessageListener

  @Override
  public String getName() {
    return "mpqoe";
  }

  /** Packet-ins reach mpqoe after Floodlight has learnt links, topology and devices from them. */
  @Override
  public boolean isCallbackOrderingPrereq(OFType type, String name) {
    return type == OFType.PACKET_IN
        && ("linkdiscovery".equals(name)
            || "topology".equals(name)
            || "devicemanager".equals(name));
  }

  /** ... and before Forwarding, which must not install its own flows for MPTCP handshakes. */
  @Override
  public boolean isCallbackOrderingPostreq(OFType type, String name) {
    return type == OFType.PACKET_IN && "forwarding".equals(name);
  }

  /** Runs on Floodlight's I/O threads; the control plane is thread-safe. */
  @Override
  public Command receive(IOFSwitch sw, OFMessage msg, FloodlightContext cntx) {
    if (msg instanceof OFPacketIn pi) {
      return packetIn(sw, pi);
    }
    if (msg instanceof OFFlowRemoved fr) {
      flowRemoved(sw, fr);
    } else if (msg instanceof OFErrorMsg e) {
      error(sw, e);
    }
    return Command.CONTINUE;
  }

  private Command packetIn(IOFSwitch sw, OFPacketIn pi) {
    long dpid = sw.getId().getLong();
    if (!inTopology(dpid) || switches.usable(dpid) == null) {
      return Command.CONTINUE;
    }
    OFPort in = OFMessageUtils.getInPort(pi);
    int port = in.getPortNumber();
    Reaction r;
    try {
      r = plane.mptcpPacketIn(dpid, port, pi.getData());
    } catch (RuntimeException e) {
      LOG.error(
          "packet-in {} port {}: mpqoe failed; left to Floodlight",
          new Object[] {name(dpid), port, e});
      return Command.CONTINUE;
    }
    if (!HostedRuntime.consumes(r)) {
      return Command.CONTINUE;
    }
    LOG.info("packet-in {} port {}: {} {}", new Object[] {name(dpid), port, r.kind(), r.log()});
    applier.apply(r.plan());
    return Command.STOP;
  }

  /** An expiry ends a subflow; a deletion (ours, or a table wipe) does not. */
  private void flowRemoved(IOFSwitch sw, OFFlowRemoved f) {
    long cookie = f.getCookie().getValue();
    long dpid = sw.getId().getLong();
    if (Cookies.isOurs(cookie) && inTopology(dpid)) {
      plane.flowRemoved(dpid, cookie, OfEvents.expired(f.getReason()));
    }
  }

  /** A switch refused one of mpqoe's flow mods: worth a warning (Floodlight only counts it). */
  private void error(IOFSwitch sw, OFErrorMsg e) {
    OFMessage cause = e.getData().getParsedMessage().orNull();
    if (cause instanceof OFFlowMod fm && Cookies.isOurs(fm.getCookie().getValue())) {
      LOG.warn(
          "switch {} refused an mpqoe rule: {} (cookie {}, match {})",
          new Object[] {name(sw.getId().getLong()), e.getErrType(), fm.getCookie(), fm.getMatch()});
    }
  }

  // ---------------------------------------------------------------------------- IOFSwitchListener

  @Override
  public void switchAdded(DatapathId switchId) {}

  @Override
  public void switchRemoved(DatapathId switchId) {}

  /**
   * The core's rules for a switch that became active (Floodlight has just cleared its tables and
   * added its table-miss entries), including the rules of live subflows across it.
   */
  @Override
  public void switchActivated(DatapathId switchId) {
    if (chainLogged.compareAndSet(false, true)) {
      List<String> chain = new ArrayList<>();
      provider.getListeners().get(OFType.PACKET_IN).forEach(l -> chain.add(l.getName()));
      LOG.info("PACKET_IN listeners: {}", String.join(", ", chain));
    }
    long dpid = switchId.getLong();
    if (!inTopology(dpid)) {
      LOG.info("switch {} is not in the topology (yet): left to Floodlight", switchId);
      return;
    }
    installTraps(dpid, HostedRuntime.onSwitchActive(plane.switchConnected(dpid)));
  }

  /**
   * {@code rules}, the reflect rule and the SYN traps of the switch's host ports, on a switch of
   * the topology.
   */
  private void installTraps(long dpid, List<FlowRule> rules) {
    IOFSwitch sw = switches.usable(dpid);
    if (sw == null) {
      return;
    }
    DatapathId switchId = sw.getId();
    List<Integer> hostPorts = HostedRuntime.hostPorts(plane.topology(), dpid);
    var traps =
        HostedRuntime.synTraps(dpid, hostPorts, HostedRuntime.trapPriority(settings.config()));
    applier.install(
        FloodlightSwitches.of(sw),
        List.of(),
        HostedRuntime.switchRules(dpid, rules),
        traps,
        () ->
            LOG.info(
                "switch {} ({}) active: {} mpqoe rule(s) and the LLDP reflect rule installed, SYN"
                    + " trap on host port(s) {}",
                new Object[] {name(dpid), switchId, rules.size(), hostPorts}));
  }

  /** A port changed: a link that went down or up moves the subflows that use it. */
  @Override
  public void switchPortChanged(DatapathId switchId, OFPortDesc port, PortChangeType type) {
    long dpid = switchId.getLong();
    if (!inTopology(dpid)) {
      return;
    }
    boolean up =
        OfEvents.portUp(port, type == PortChangeType.DELETE || type == PortChangeType.DOWN);
    int number = port.getPortNo().getPortNumber();
    FlowPlan plan = plane.portStatus(dpid, number, up);
    if (plane.links().linkAt(dpid, number) >= 0) {
      LOG.info(
          "port {}/{} {}: {} removal(s), {} install(s), {} modification(s)",
          new Object[] {
            name(dpid),
            number,
            up ? "up" : "down",
            plan.removals().size(),
            plan.installs().size(),
            plan.modifications().size()
          });
    }
    applier.apply(plan);
  }

  @Override
  public void switchChanged(DatapathId switchId) {}

  @Override
  public void switchDeactivated(DatapathId switchId) {}

  // ---------------------------------------------------------------------------- link state

  /**
   * StatisticsCollector's port period for a statsIntervalS: at least 2 s. With a period of P
   * seconds the collector looks for switch replies right after sending its requests and then P-1
   * more times a second apart; with 1 s it keeps only the switches that answered at once (seen: one
   * of eleven Open vSwitch bridges never got a rate).
   */
  static int collectorPeriod(int statsIntervalS) {
    return Math.max(2, statsIntervalS);
  }

  /**
   * LLDP probes, read before Floodlight's link discovery takes them (which it may stop). mpqoe's
   * own reflect probes are stopped here ({@link HostedRuntime#lldpIn}: a reflected one back at its
   * sender is a time for the core's estimator), so that Floodlight's link discovery and Forwarding
   * never see them. Floodlight's probes go on to its link discovery; each is also one one-way time
   * for the estimator ({@link #lldpSample}).
   */
  private final IOFMessageListener lldpTap =
      new IOFMessageListener() {
        @Override
        public String getName() {
          return "mpqoe-lldp";
        }

        @Override
        public boolean isCallbackOrderingPrereq(OFType type, String name) {
          return false;
        }

        @Override
        public boolean isCallbackOrderingPostreq(OFType type, String name) {
          return type == OFType.PACKET_IN && "linkdiscovery".equals(name);
        }

        @Override
        public Command receive(IOFSwitch sw, OFMessage msg, FloodlightContext cntx) {
          if (msg instanceof OFPacketIn pi) {
            return lldpIn(sw, pi, System.nanoTime());
          }
          return Command.CONTINUE;
        }
      };

  /** A packet-in that reached the LLDP tap at {@code nowNanos}: stopped if it is mpqoe's probe. */
  Command lldpIn(IOFSwitch sw, OFPacketIn pi, long nowNanos) {
    byte[] frame = pi.getData();
    int port = OFMessageUtils.getInPort(pi).getPortNumber();
    if (HostedRuntime.lldpIn(plane.links(), sw.getId().getLong(), port, frame, nowNanos)) {
      return Command.STOP;
    }
    lldpSample(sw, pi, nowNanos);
    return Command.CONTINUE;
  }

  /**
   * One delay sample from a probe of Floodlight's that {@code sw} got at {@code nowNanos} ({@code
   * System.nanoTime()}, Floodlight's clock for its stamps). Runs on Floodlight's I/O threads; never
   * throws for a frame that is not a probe.
   */
  void lldpSample(IOFSwitch sw, OFPacketIn pi, long nowNanos) {
    var probe = FloodlightLldp.parse(pi.getData());
    if (probe.isEmpty()) {
      return;
    }
    FloodlightLldp.Probe p = probe.get();
    IOFSwitch sender = switchService.getSwitch(DatapathId.of(p.srcDpid()));
    if (sender == null || sender.getLatency() == null) {
      return;
    }
    double elapsed = FloodlightLldp.elapsedMs(p, nowNanos, sender.getLatency().getValue());
    if (elapsed < 0) {
      return; // the sender's latency estimate fell since the stamp: no sample
    }
    plane
        .links()
        .lldpSample(
            p.srcDpid(),
            p.srcPort(),
            sw.getId().getLong(),
            OFMessageUtils.getInPort(pi).getPortNumber(),
            elapsed);
  }

  /**
   * One round of reflect probes out of every up port of every switch of the topology, spread over
   * the probe interval ({@link HostedRuntime#probeRound}); the first goes at once, the others are
   * scheduled. Returns the round (tests).
   */
  List<LldpProbes.Timed> probeRound() {
    try {
      List<LldpProbes.Timed> round =
          HostedRuntime.probeRound(
              discovered.view(),
              plane.topology(),
              settings.config().discovery().lldpInterval().toNanos());
      ScheduledExecutorService executor = threadPool.getScheduledExecutor();
      for (LldpProbes.Timed t : round) {
        if (t.delayNanos() == 0) {
          sendProbe(t);
        } else {
          executor.schedule(() -> sendProbe(t), t.delayNanos(), TimeUnit.NANOSECONDS);
        }
      }
      return round;
    } catch (RuntimeException e) {
      LOG.warn("mpqoe: LLDP probe round failed", e);
      return List.of();
    }
  }

  /** Sends one probe, stamped now, through the plan applier (nothing if its switch is gone). */
  private void sendProbe(LldpProbes.Timed t) {
    long dpid = t.port().dpid();
    if (switches.usable(dpid) == null) {
      return;
    }
    applier.apply(
        new FlowPlan(
            List.of(),
            List.of(),
            List.of(),
            LldpProbes.probe(t.kind(), dpid, t.port().port(), System.nanoTime())));
  }

  /**
   * A barrier to every switch of the topology, timed: its round trip is the control channel's
   * (Floodlight answers echoes itself, so a barrier is the request whose reply this module sees).
   */
  void probeControlChannels() {
    for (long dpid : switches.managed()) {
      IOFSwitch sw = switches.usable(dpid);
      if (sw == null) {
        continue;
      }
      OFFactory f = sw.getOFFactory();
      long sent = System.nanoTime();
      sw.writeRequest(f.buildBarrierRequest().setXid(f.nextXid()).build())
          .addListener(
              () -> plane.links().controlRtt(dpid, (System.nanoTime() - sent) / 1e6),
              Runnable::run);
    }
  }

  /**
   * Every second: new port rates, the control channels' round trips, the estimated link delays if
   * asked for.
   */
  void pollLinkState() {
    try {
      probeControlChannels();
      for (SwitchPortBandwidth b : statistics.getBandwidthConsumption().values()) {
        long dpid = b.getSwitchId().getLong();
        if (inTopology(dpid)) {
          bandwidth.sample(
              dpid,
              b.getSwitchPort().getPortNumber(),
              b.getBitsPerSecondTx().getValue(),
              b.getStartTime_ns(),
              (d, p, tx, t) -> plane.portStats(d, p, tx, 0, t));
        }
      }
      if (settings.delaysFromLldp()) {
        plane.links().latenciesFromEstimates();
      }
    } catch (RuntimeException e) {
      LOG.warn("mpqoe: link state poll failed", e);
    }
  }

  // ---------------------------------------------------------------------------- helpers

  boolean inTopology(long dpid) {
    return plane.topology().switchWithDpid(dpid).isPresent();
  }

  /** The descriptor's name of a switch for logs, else its DPID. */
  private String name(long dpid) {
    return plane
        .topology()
        .switchWithDpid(dpid)
        .map(SwitchNode::name)
        .orElse(DatapathId.of(dpid).toString());
  }

  /** Stops the periodic poll and the rebuild thread (tests; Floodlight has no module shutdown). */
  void stop() {
    if (poller != null) {
      poller.cancel(false);
    }
    if (prober != null) {
      prober.cancel(false);
    }
    rebuilder.shutdownNow();
  }
}
