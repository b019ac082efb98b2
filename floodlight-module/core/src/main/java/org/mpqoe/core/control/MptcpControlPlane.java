package org.mpqoe.core.control;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.mpqoe.core.mptcp.MptcpHandshake;
import org.mpqoe.core.mptcp.ParseStats;
import org.mpqoe.core.mptcp.Tokens;
import org.mpqoe.core.packet.Addresses;
import org.mpqoe.core.packet.Arp;
import org.mpqoe.core.packet.ArpReply;
import org.mpqoe.core.packet.Frame;
import org.mpqoe.core.path.CandidatePaths;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.select.QomraSelector;
import org.mpqoe.core.select.Selectors;
import org.mpqoe.core.topology.DescriptorCheck;
import org.mpqoe.core.topology.Host;
import org.mpqoe.core.topology.HostInterface;
import org.mpqoe.core.topology.Link;
import org.mpqoe.core.topology.SwitchNode;
import org.mpqoe.core.topology.Topology;

/**
 * The whole control plane behind one small event API, so that the standalone OpenFlow runtime and
 * the Floodlight adapter share one implementation: switch connected, packet-in, port status, port
 * statistics, flow removed. Every decision is made here or below; runtimes only translate events in
 * and plans out. Thread-safe: packet-ins of different clients are handled in parallel (selection
 * runs outside any shared lock, {@link MptcpRouter}).
 *
 * <p>Construction warms up what a first client would otherwise pay for: the configured algorithm
 * (on throw-away QoMRA books, in the background until compiled) and one subflow's rules on the real
 * topology, so that class loading and compilation of the selector and graph libraries happen before
 * the first SYN.
 *
 * <p>The topology may change at run time ({@link #replaceTopology}): a runtime that discovers the
 * network starts with what it knows (possibly nothing) and rebuilds as links and hosts appear. All
 * state derived from the topology is one {@link Network}, replaced as a whole.
 */
public final class MptcpControlPlane {
  /** Where the topology came from, as REST {@code GET topology} shows it. */
  public enum Source {
    DESCRIPTOR("descriptor"),
    DISCOVERED("discovered"),
    DESCRIPTOR_AND_DISCOVERED("descriptor+discovered");

    private final String label;

    Source(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  private final LinkStateTracker links;
  private final MptcpRouter router;
  private final RestApi rest;
  private final ControlStats stats = new ControlStats();

  /** Runs early selections ({@code selectAt} first-packet) and drops the unused ones. */
  private final ScheduledExecutorService early =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "mpqoe-early-selection");
            t.setDaemon(true);
            return t;
          });

  private volatile Source source;
  private volatile List<DescriptorCheck.Mismatch> mismatches = List.of();

  /**
   * A control plane on a descriptor's topology, or, for a topology without a descriptor (such as
   * {@link Topology#empty}), on what was discovered so far.
   */
  public MptcpControlPlane(Topology topology, ControlConfig config) {
    this(topology, config, topology.descriptor() != null ? Source.DESCRIPTOR : Source.DISCOVERED);
  }

  public MptcpControlPlane(Topology topology, ControlConfig config, Source source) {
    this.source = source;
    this.links = new LinkStateTracker(topology);
    this.router = new MptcpRouter(Network.of(topology, config.maxHops()), links, config, stats, 1);
    this.rest =
        new RestApi(
            () -> router.net().topology(),
            router,
            links::snapshot,
            l -> router.paths().isLinkUp(l),
            links::delayKnown,
            () -> this.source.label(),
            () -> this.mismatches);
    warmUp(config);
  }

  /**
   * Warms up without touching any book: the candidate paths of every client and server pair (the
   * cache a SYN reads); selections between the first pair with a throw-away selector on a
   * background thread until their time settles ({@link SelectorWarmUp}); then one MP_CAPABLE SYN of
   * the first client, parsed, classified and handled by a throw-away router on the same topology,
   * so that the whole packet-in path is loaded and compiled once.
   */
  private void warmUp(ControlConfig config) {
    Network net = router.net();
    Topology topology = net.topology();
    CandidatePaths paths = net.paths();
    for (Host client : topology.clients()) {
      for (Host server : topology.servers()) {
        for (HostInterface s : server.interfaces()) {
          client.interfaces().forEach(c -> paths.between(c.attachment(), s.attachment()));
        }
      }
    }
    if (topology.clients().isEmpty() || topology.servers().isEmpty()) {
      return;
    }
    Host client = topology.clients().get(0);
    Host server = topology.servers().get(0);
    List<Path> candidates = paths.between(client.firstHop(), server.firstHop());
    if (candidates.isEmpty()) {
      return;
    }
    new SelectorWarmUp(
            config.algorithm(),
            () ->
                Selectors.create(
                    config.algorithm(), config.ga(), config.qomra(), QomraSelector.Context.fresh()),
            client,
            server,
            candidates,
            links::snapshot,
            config)
        .start();
    byte[] frame =
        capableSyn(
            Addresses.parseIpv4(client.interfaces().get(0).ip()),
            Addresses.parseIpv4(server.interfaces().get(0).ip()));
    Frame f = Frame.parse(frame);
    ControlStats scratch = new ControlStats();
    MptcpHandshake h = MptcpHandshake.classify(f.tcp(), scratch.parse());
    MptcpRouter throwAway = new MptcpRouter(net, links, config, scratch, 1);
    TcpSegment syn = TcpSegment.of(client.firstHop().dpid(), 1, f, frame, h);
    int joinIp = Addresses.parseIpv4(client.interfaces().get(client.interfaces().size() - 1).ip());
    long joinDpid = client.interfaces().get(client.interfaces().size() - 1).attachment().dpid();
    long serverDpid = server.interfaces().get(0).attachment().dpid();
    // Whole handshakes (SYN, the SYN/ACK's copy, a join), so that each step was run before.
    for (int port = 1; port <= WARM_UP_CONNECTIONS; port++) {
      int sip = syn.srcIp();
      int dip = syn.dstIp();
      throwAway.handle(new TcpSegment(syn.dpid(), 1, sip, dip, port, 1, syn.flags(), h, frame));
      var key = new MptcpHandshake.CapableSynAck(1, 0x12, port);
      throwAway.handle(new TcpSegment(serverDpid, 1, dip, sip, 1, port, 0x12, key, frame));
      var join = new MptcpHandshake.JoinSyn(Tokens.token(port, 1), 1, 0, false);
      throwAway.handle(new TcpSegment(joinDpid, 1, joinIp, dip, port, 1, 0x02, join, frame));
    }
  }

  /** Handshakes the warm-up runs through a throw-away router. */
  private static final int WARM_UP_CONNECTIONS = 20;

  /** An MP_CAPABLE v1 SYN (option kind 30, length 4) from port 1 to port 1, for the warm-up. */
  private static byte[] capableSyn(int src, int dst) {
    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(14 + 20 + 24);
    b.put(new byte[12]).putShort((short) 0x0800);
    b.put((byte) 0x45).put((byte) 0).putShort((short) 44).putInt(0);
    b.put((byte) 64).put((byte) 6).putShort((short) 0).putInt(src).putInt(dst);
    b.putShort((short) 1).putShort((short) 1).putInt(1).putInt(0);
    b.put((byte) 0x60).put((byte) 0x02).putShort((short) 1000).putInt(0);
    b.put(new byte[] {30, 4, 0x01, 0x01});
    return b.array();
  }

  /** The current topology (it changes when {@link #replaceTopology} is called). */
  public Topology topology() {
    return router.net().topology();
  }

  /** Where the current topology came from. */
  public Source source() {
    return source;
  }

  /** How the network differs from the descriptor, as of the last rebuild (empty without one). */
  public List<DescriptorCheck.Mismatch> topologyMismatches() {
    return mismatches;
  }

  /**
   * The topology was rebuilt from the network (with or without a descriptor overlay, {@link
   * org.mpqoe.core.topology.TopologyBuilder}); {@code mismatches} are what the rebuild found
   * against the descriptor. Returns the plan that repairs the switches' rules:
   *
   * <ul>
   *   <li>an unchanged rebuild (same switches, links by key and order, same hosts and attachments)
   *       only takes the new link delays (without a descriptor: the LLDP latencies; with one, the
   *       descriptor's delays stay) and returns an empty plan;
   *   <li>otherwise the live state moves to the new topology ({@link TopologySwap}): subflows on
   *       paths that survived keep their rules, those on paths that lost a link are selected for
   *       again and moved as after a link failure (new rules under a new cookie generation, the old
   *       ones deleted); delivery rules are replaced on each switch whose attachments changed
   *       (including switches the old topology did not know); with segment routing, labels derive
   *       from indices, so every switch's label rules are replaced and every live subflow's rules
   *       rebuilt (new cookie generation).
   * </ul>
   *
   * Rebuilds run one at a time; packet-ins go on meanwhile. Never installs a rule over a link that
   * {@code next} does not have.
   */
  public FlowPlan replaceTopology(Topology next, List<DescriptorCheck.Mismatch> mismatches) {
    synchronized (rebuilds) {
      this.mismatches = List.copyOf(mismatches);
      this.source =
          next.descriptor() != null ? Source.DESCRIPTOR_AND_DISCOVERED : Source.DISCOVERED;
      Network old = router.net();
      if (sameShape(old.topology(), next)) {
        if (next.descriptor() == null) {
          for (Link l : next.links()) {
            links.latency(l.index(), l.delayMs());
          }
        }
        return FlowPlan.EMPTY;
      }
      ControlConfig config = router.config();
      Network net = Network.of(next, config.maxHops());
      FlowPlan plan = router.replaceNetwork(net, config.segmentRouting());
      plan = plan.then(proactiveDiff(old, net, config));
      // A runtime that discovers the network starts with no hosts, so this is its first warm-up.
      warmUp(config);
      stats.plan(plan);
      return plan;
    }
  }

  private final Object rebuilds = new Object();

  /** Same switches (dpid, order), links (key, order, up to delays) and hosts. */
  private static boolean sameShape(Topology a, Topology b) {
    if (a.switches().size() != b.switches().size()
        || a.links().size() != b.links().size()
        || !a.hosts().equals(b.hosts())) {
      return false;
    }
    for (int i = 0; i < a.switches().size(); i++) {
      if (!a.switches().get(i).equals(b.switches().get(i))) {
        return false;
      }
    }
    for (int i = 0; i < a.links().size(); i++) {
      Link x = a.links().get(i);
      Link y = b.links().get(i);
      if (!a.linkKey(i).equals(b.linkKey(i))
          || x.capacityMbps() != y.capacityMbps()
          || x.lossPct() != y.lossPct()) {
        return false;
      }
    }
    return true;
  }

  /**
   * The proactive rules that differ between two networks: delivery rules, replaced as a whole on
   * each switch whose set changed; with segment routing, the label rules of every switch.
   */
  private static FlowPlan proactiveDiff(Network old, Network next, ControlConfig config) {
    List<FlowPlan.Removal> removals = new ArrayList<>();
    List<FlowRule> installs = new ArrayList<>();
    java.util.Set<Long> dpids = new java.util.TreeSet<>();
    old.topology().switches().forEach(s -> dpids.add(s.dpid()));
    next.topology().switches().forEach(s -> dpids.add(s.dpid()));
    for (long dpid : dpids) {
      List<FlowRule> before = deliveryRules(old, dpid, config);
      List<FlowRule> after = deliveryRules(next, dpid, config);
      if (!new java.util.HashSet<>(before).equals(new java.util.HashSet<>(after))) {
        removals.add(new FlowPlan.Removal(dpid, Cookies.of(Cookies.DELIVERY), Cookies.EXACT));
        installs.addAll(after);
      }
    }
    if (config.segmentRouting()) {
      for (SwitchNode sw : next.topology().switches()) {
        removals.add(new FlowPlan.Removal(sw.dpid(), Cookies.of(Cookies.LABEL), Cookies.EXACT));
        installs.addAll(next.segmentRouting().labelRules(sw, config.plainPriority()));
      }
    }
    return new FlowPlan(removals, installs, List.of(), null);
  }

  /** Delivery to the host interfaces attached to switch {@code dpid}. */
  private static List<FlowRule> deliveryRules(Network net, long dpid, ControlConfig config) {
    List<FlowRule> rules = new ArrayList<>();
    for (HostDirectory.Attachment a : net.hosts().all()) {
      if (a.iface().attachment().dpid() == dpid) {
        rules.add(
            new FlowRule(
                dpid,
                0,
                config.plainPriority(),
                new FlowMatch.Ipv4Destination(Addresses.parseIpv4(a.iface().ip())),
                List.of(new FlowAction.Output(a.iface().port())),
                0,
                Cookies.of(Cookies.DELIVERY),
                false));
      }
    }
    return rules;
  }

  public MptcpRouter router() {
    return router;
  }

  public LinkStateTracker links() {
    return links;
  }

  public RestApi rest() {
    return rest;
  }

  /** Counters of malformed or unexpected options seen in packet-ins. */
  public ParseStats parseStats() {
    return stats.parse();
  }

  /** What the control plane did: packet-ins, rules, selections, step timings. */
  public ControlStats stats() {
    return stats;
  }

  /**
   * Rules for a switch that finished its handshake: the table-miss entries (to the controller:
   * everything at priority 0, and TCP SYNs at 1, see {@link FlowMatch.TcpSyn}), delivery to the
   * host interfaces attached to it, with segment routing the label rules, and the rules of live
   * subflows that cross it (a switch that reconnects gets them back). A switch the topology does
   * not know (yet) gets the table-miss entry only; the rebuild that adds it installs the rest
   * ({@link #replaceTopology}).
   */
  public List<FlowRule> switchConnected(long dpid) {
    Network net = router.net();
    SwitchNode sw = net.topology().switchWithDpid(dpid).orElse(null);
    ControlConfig config = router.config();
    List<FlowRule> rules = new ArrayList<>();
    rules.add(
        new FlowRule(
            dpid,
            0,
            0,
            new FlowMatch.All(),
            List.of(new FlowAction.ToController()),
            0,
            Cookies.of(Cookies.TABLE_MISS),
            false));
    rules.add(
        new FlowRule(
            dpid,
            0,
            1,
            new FlowMatch.TcpSyn(0),
            List.of(new FlowAction.ToController()),
            0,
            Cookies.of(Cookies.TABLE_MISS),
            false));
    if (sw == null) {
      stats.installed(rules.size());
      return rules;
    }
    rules.addAll(deliveryRules(net, dpid, config));
    if (config.segmentRouting()) {
      rules.addAll(net.segmentRouting().labelRules(sw, config.plainPriority()));
    }
    rules.addAll(router.rulesAt(dpid));
    stats.installed(rules.size());
    return rules;
  }

  /**
   * A packet-in from the standalone runtime: ARP requests for known addresses are answered, MPTCP
   * handshakes routed, other IPv4 sent by shortest path.
   */
  public Reaction packetIn(long dpid, int inPort, byte[] frame) {
    long start = System.nanoTime();
    return packetIn(dpid, inPort, Frame.parse(frame), frame, start);
  }

  /**
   * {@link #packetIn(long, int, byte[])} for a runtime that parsed the frame already ({@code f} is
   * {@code Frame.parse(frame)}), so that a packet-in is parsed once.
   */
  public Reaction packetIn(long dpid, int inPort, Frame f, byte[] frame) {
    return packetIn(dpid, inPort, f, frame, System.nanoTime());
  }

  private Reaction packetIn(long dpid, int inPort, Frame f, byte[] frame, long start) {
    TcpSegment s = classify(dpid, inPort, f, frame, start);
    selectEarly(f, s);
    Reaction r;
    if (f.hasArp()) {
      r = arp(router.net(), dpid, inPort, f);
    } else if (f.ipv4() == null) {
      r = Reaction.ignored("neither ARP nor IPv4");
    } else {
      Optional<Reaction> mptcp = s == null ? Optional.empty() : router.handle(s);
      r = mptcp.isPresent() ? mptcp.get() : plain(router.net(), dpid, inPort, f, s, frame);
    }
    return done(r, start);
  }

  /**
   * A packet-in where another module forwards ordinary traffic (Floodlight): only MPTCP handshakes
   * are handled, everything else is {@link Reaction.Kind#IGNORED}.
   */
  public Reaction mptcpPacketIn(long dpid, int inPort, byte[] frame) {
    long start = System.nanoTime();
    Frame f = Frame.parse(frame);
    TcpSegment s = classify(dpid, inPort, f, frame, start);
    selectEarly(f, s);
    Optional<Reaction> r = s == null ? Optional.empty() : router.handle(s);
    return done(r.orElse(Reaction.ignored("not MPTCP business")), start);
  }

  /**
   * The one classification of a packet-in: a TCP segment with its MPTCP handshake step (null for
   * anything that is not IPv4/TCP). The router decides on that step alone.
   */
  private TcpSegment classify(long dpid, int inPort, Frame f, byte[] frame, long start) {
    if (!f.hasTcp() || f.ipv4() == null) {
      stats.time(ControlStats.Step.CLASSIFICATION, System.nanoTime() - start);
      return null;
    }
    MptcpHandshake h = MptcpHandshake.classify(f.tcp(), stats.parse());
    stats.handshake(h.step());
    stats.time(ControlStats.Step.CLASSIFICATION, System.nanoTime() - start);
    return TcpSegment.of(dpid, inPort, f, frame, h);
  }

  /**
   * With {@code selectAt} first-packet: an ARP request or an IPv4 packet other than an MP_CAPABLE
   * SYN (which selects by itself) starts the selection of its sender's paths towards its target,
   * when they are a client and a server without an assignment ({@link MptcpRouter#selectEarly}).
   */
  private void selectEarly(Frame f, TcpSegment s) {
    if (!router.config().selectsEarly()) {
      return;
    }
    if (f.hasArp() && f.arp().op() == Arp.REQUEST) {
      router.selectEarly(f.arp().senderIp(), f.arp().targetIp(), early);
    } else if (f.ipv4() != null
        && !(s != null && s.signal() instanceof MptcpHandshake.CapableSyn)) {
      router.selectEarly(f.ipv4().src(), f.ipv4().dst(), early);
    }
  }

  private Reaction done(Reaction r, long start) {
    stats.packetIn(r.kind());
    stats.plan(r.plan());
    stats.time(ControlStats.Step.PACKET_IN, System.nanoTime() - start);
    return r;
  }

  private Reaction arp(Network net, long dpid, int inPort, Frame f) {
    Arp arp = f.arp();
    if (arp.op() != Arp.REQUEST) {
      return Reaction.ignored("ARP reply");
    }
    var owner = net.hosts().byIp(arp.targetIp());
    if (owner.isEmpty()) {
      return Reaction.dropped("ARP for unknown " + Addresses.formatIpv4(arp.targetIp()));
    }
    byte[] reply =
        ArpReply.answering(f, Addresses.parseMac(owner.get().iface().mac())).orElseThrow();
    return new Reaction(
        Reaction.Kind.ARP,
        new FlowPlan(
            List.of(),
            List.of(),
            List.of(),
            new FlowPlan.PacketOut(
                dpid, FlowAction.PORT_CONTROLLER, reply, List.of(new FlowAction.Output(inPort)))),
        "ARP " + Addresses.formatIpv4(arp.targetIp()) + " is " + owner.get().iface().mac());
  }

  /**
   * Plain IPv4 along the hop-shortest path from this switch to the destination's switch (the last
   * hop is the proactive delivery rule). TCP rules match the one connection, so that a new
   * connection's SYN, MPTCP or not, still reaches the controller; other protocols are matched by
   * destination and protocol. Suffixes of shortest paths are shortest paths, so destination rules
   * of different sources agree.
   */
  private Reaction plain(Network net, long dpid, int inPort, Frame f, TcpSegment s, byte[] frame) {
    Topology topology = net.topology();
    int dstIp = f.ipv4().dst();
    FlowMatch match =
        s != null ? s.match() : new FlowMatch.Ipv4Protocol(dstIp, f.ipv4().protocol());
    var dst = net.hosts().byIp(dstIp);
    var here = topology.switchWithDpid(dpid);
    if (dst.isEmpty() || here.isEmpty()) {
      return Reaction.dropped("IPv4 to unknown " + Addresses.formatIpv4(dstIp));
    }
    Optional<Path> shortest = net.paths().shortest(here.get(), dst.get().iface().attachment());
    if (shortest.isEmpty()) {
      return Reaction.dropped("no path to " + Addresses.formatIpv4(dstIp));
    }
    Path p = shortest.get();
    ControlConfig config = router.config();
    List<FlowRule> rules = new ArrayList<>();
    int[] l = p.links();
    List<SwitchNode> nodes = p.switchNodes(topology);
    for (int i = l.length - 1; i >= 0; i--) {
      Link link = topology.links().get(l[i]);
      rules.add(
          new FlowRule(
              nodes.get(i).dpid(),
              0,
              config.plainPriority(),
              match,
              List.of(new FlowAction.Output(link.portAt(nodes.get(i)))),
              60,
              Cookies.of(Cookies.PLAIN),
              false));
    }
    return new Reaction(
        Reaction.Kind.PLAIN,
        new FlowPlan(
            List.of(),
            rules,
            List.of(),
            new FlowPlan.PacketOut(
                dpid, inPort, frame, List.of(new FlowAction.Output(FlowAction.PORT_TABLE)))),
        "IPv4 to " + Addresses.formatIpv4(dstIp) + " via " + p.describe(topology));
  }

  /**
   * A port went down or up; a switch-to-switch link is up while both of its ports are, and the
   * subflows on a link that went down are moved ({@link LinkStateTracker#portChanged}).
   */
  public FlowPlan portStatus(long dpid, int port, boolean up) {
    int link = links.linkAt(dpid, port);
    FlowPlan plan = link < 0 ? FlowPlan.EMPTY : router.portChanged(link, dpid, port, up);
    stats.plan(plan);
    return plan;
  }

  public void portStats(long dpid, int port, long txBytes, long rxBytes, long nanoTime) {
    links.portStats(dpid, port, txBytes, nanoTime);
  }

  /**
   * A rule of ours left a switch. Only an expiry (idle or hard timeout, or eviction) says that
   * traffic stopped; a deletion (ours, or the wipe when a switch reconnects) does not end anything.
   */
  public void flowRemoved(long dpid, long cookie, boolean expired) {
    if (Cookies.isOurs(cookie)) {
      stats.removed(expired);
    }
    if (expired) {
      router.flowRemoved(cookie);
    }
  }
}
