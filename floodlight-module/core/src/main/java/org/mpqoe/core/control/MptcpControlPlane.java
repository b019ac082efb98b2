package org.mpqoe.core.control;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.mpqoe.core.mptcp.MptcpHandshake;
import org.mpqoe.core.mptcp.ParseStats;
import org.mpqoe.core.packet.Addresses;
import org.mpqoe.core.packet.Arp;
import org.mpqoe.core.packet.ArpReply;
import org.mpqoe.core.packet.Frame;
import org.mpqoe.core.path.CandidatePaths;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.topology.Link;
import org.mpqoe.core.topology.SwitchNode;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyException;

/**
 * The whole control plane behind one small event API, so that the standalone OpenFlow runtime and
 * the Floodlight adapter share one implementation: switch connected, packet-in, port status, port
 * statistics, flow removed. Every decision is made here or below; runtimes only translate events in
 * and plans out. Thread-safe.
 */
public final class MptcpControlPlane {
  private final Topology topology;
  private final HostDirectory hosts;
  private final CandidatePaths paths;
  private final LinkStateTracker links;
  private final MptcpRouter router;
  private final SegmentRouting segmentRouting;
  private final RestApi rest;
  private final ParseStats parseStats = new ParseStats();

  public MptcpControlPlane(Topology topology, ControlConfig config) {
    this.topology = topology;
    this.hosts = new HostDirectory(topology);
    this.paths = new CandidatePaths(topology, config.maxHops());
    this.links = new LinkStateTracker(topology);
    this.router = new MptcpRouter(topology, hosts, paths, links, config);
    this.segmentRouting = new SegmentRouting(topology);
    this.rest = new RestApi(topology, router, links::snapshot, paths::isLinkUp);
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
    return parseStats;
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
    return rules;
  }

  /**
   * A packet-in from the standalone runtime: ARP requests for known addresses are answered, MPTCP
   * handshakes routed, other IPv4 sent by shortest path.
   */
  public Reaction packetIn(long dpid, int inPort, byte[] frame) {
    Frame f = Frame.parse(frame);
    if (f.hasArp()) {
      return arp(dpid, inPort, f);
    }
    Optional<Reaction> mptcp = mptcp(dpid, inPort, f, frame);
    if (mptcp.isPresent()) {
      return mptcp.get();
    }
    if (f.ipv4() != null) {
      return plain(dpid, inPort, f, frame);
    }
    return Reaction.ignored("neither ARP nor IPv4");
  }

  /**
   * A packet-in where another module forwards ordinary traffic (Floodlight): only MPTCP handshakes
   * are handled, everything else is {@link Reaction.Kind#IGNORED}.
   */
  public Reaction mptcpPacketIn(long dpid, int inPort, byte[] frame) {
    return mptcp(dpid, inPort, Frame.parse(frame), frame)
        .orElse(Reaction.ignored("not an MPTCP handshake"));
  }

  /**
   * MPTCP business: handshake steps go to the router; any other segment of a routed subflow can
   * only be a copy (the server-side rule copies until the SYN/ACK's key is read, and datapath
   * caches keep copying a little longer) and is dropped: the switch forwarded the original.
   */
  private Optional<Reaction> mptcp(long dpid, int inPort, Frame f, byte[] frame) {
    if (!f.hasTcp() || f.ipv4() == null) {
      return Optional.empty();
    }
    MptcpHandshake h = MptcpHandshake.classify(f.tcp(), parseStats);
    if (h.step() == MptcpHandshake.Step.NONE
        || h.step() == MptcpHandshake.Step.CAPABLE_ACK
        || h.step() == MptcpHandshake.Step.JOIN_SYNACK
        || h.step() == MptcpHandshake.Step.JOIN_ACK) {
      FlowMatch.Subflow segment =
          new FlowMatch.Subflow(
              f.ipv4().src(), f.ipv4().dst(), f.tcp().srcPort(), f.tcp().dstPort());
      return router.isRouted(segment)
          ? Optional.of(Reaction.dropped("copy of a routed subflow's segment"))
          : Optional.empty();
    }
    return router.handle(
        new TcpSegment(
            dpid,
            inPort,
            f.ipv4().src(),
            f.ipv4().dst(),
            f.tcp().srcPort(),
            f.tcp().dstPort(),
            h,
            frame));
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
  private Reaction plain(long dpid, int inPort, Frame f, byte[] frame) {
    int dstIp = f.ipv4().dst();
    FlowMatch match =
        f.hasTcp()
            ? new FlowMatch.Subflow(f.ipv4().src(), dstIp, f.tcp().srcPort(), f.tcp().dstPort())
            : new FlowMatch.Ipv4Protocol(dstIp, f.ipv4().protocol());
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
    return link < 0 ? FlowPlan.EMPTY : router.linkChanged(link, up);
  }

  public void portStats(long dpid, int port, long txBytes, long rxBytes, long nanoTime) {
    links.portStats(dpid, port, txBytes, nanoTime);
  }

  /**
   * A rule of ours left a switch. Only an expiry (idle or hard timeout, or eviction) says that
   * traffic stopped; a deletion (ours, or the wipe when a switch reconnects) does not end anything.
   */
  public void flowRemoved(long dpid, long cookie, boolean expired) {
    if (expired) {
      router.flowRemoved(cookie);
    }
  }
}
