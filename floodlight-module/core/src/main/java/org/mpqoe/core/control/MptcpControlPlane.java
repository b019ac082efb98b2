package org.mpqoe.core.control;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
import org.mpqoe.core.topology.Host;
import org.mpqoe.core.topology.Link;
import org.mpqoe.core.topology.SwitchNode;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyException;

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
 */
public final class MptcpControlPlane {
  private final Topology topology;
  private final HostDirectory hosts;
  private final CandidatePaths paths;
  private final LinkStateTracker links;
  private final MptcpRouter router;
  private final SegmentRouting segmentRouting;
  private final RestApi rest;
  private final ControlStats stats = new ControlStats();

  public MptcpControlPlane(Topology topology, ControlConfig config) {
    this.topology = topology;
    this.hosts = new HostDirectory(topology);
    this.paths = new CandidatePaths(topology, config.maxHops());
    this.links = new LinkStateTracker(topology);
    this.segmentRouting = new SegmentRouting(topology);
    this.router = new MptcpRouter(topology, hosts, paths, links, segmentRouting, config, stats, 1);
    this.rest = new RestApi(topology, router, links::snapshot, paths::isLinkUp);
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
    for (Host client : topology.clients()) {
      for (Host server : topology.servers()) {
        paths.between(client.firstHop(), server.firstHop());
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
    MptcpRouter throwAway =
        new MptcpRouter(topology, hosts, paths, links, segmentRouting, config, scratch, 1);
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

  public Topology topology() {
    return topology;
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
   * Rules for a switch that finished its handshake: the table-miss entry (to the controller),
   * delivery to the host interfaces attached to it, with segment routing the label rules, and the
   * rules of live subflows that cross it (a switch that reconnects gets them back).
   */
  public List<FlowRule> switchConnected(long dpid) {
    SwitchNode sw =
        topology
            .switchWithDpid(dpid)
            .orElseThrow(
                () ->
                    new TopologyException(
                        String.format(
                            "switch %016x is not in topology %s", dpid, topology.name())));
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
    for (HostDirectory.Attachment a : hosts.all()) {
      if (a.iface().attachment().index() == sw.index()) {
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
    if (config.segmentRouting()) {
      rules.addAll(segmentRouting.labelRules(sw, config.plainPriority()));
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
    Frame f = Frame.parse(frame);
    TcpSegment s = classify(dpid, inPort, f, frame, start);
    Reaction r;
    if (f.hasArp()) {
      r = arp(dpid, inPort, f);
    } else if (f.ipv4() == null) {
      r = Reaction.ignored("neither ARP nor IPv4");
    } else {
      Optional<Reaction> mptcp = s == null ? Optional.empty() : router.handle(s);
      r = mptcp.isPresent() ? mptcp.get() : plain(dpid, inPort, f, s, frame);
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

  private Reaction done(Reaction r, long start) {
    stats.packetIn(r.kind());
    stats.plan(r.plan());
    stats.time(ControlStats.Step.PACKET_IN, System.nanoTime() - start);
    return r;
  }

  private Reaction arp(long dpid, int inPort, Frame f) {
    Arp arp = f.arp();
    if (arp.op() != Arp.REQUEST) {
      return Reaction.ignored("ARP reply");
    }
    var owner = hosts.byIp(arp.targetIp());
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
  private Reaction plain(long dpid, int inPort, Frame f, TcpSegment s, byte[] frame) {
    int dstIp = f.ipv4().dst();
    FlowMatch match =
        s != null ? s.match() : new FlowMatch.Ipv4Protocol(dstIp, f.ipv4().protocol());
    var dst = hosts.byIp(dstIp);
    var here = topology.switchWithDpid(dpid);
    if (dst.isEmpty() || here.isEmpty()) {
      return Reaction.dropped("IPv4 to unknown " + Addresses.formatIpv4(dstIp));
    }
    List<Path> candidates = paths.between(here.get(), dst.get().iface().attachment());
    if (candidates.isEmpty()) {
      return Reaction.dropped("no path to " + Addresses.formatIpv4(dstIp));
    }
    Path p = candidates.get(0);
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

  /** A port went down or up; a switch-to-switch link follows its ports. */
  public FlowPlan portStatus(long dpid, int port, boolean up) {
    int link = links.linkAt(dpid, port);
    FlowPlan plan = link < 0 ? FlowPlan.EMPTY : router.linkChanged(link, up);
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
