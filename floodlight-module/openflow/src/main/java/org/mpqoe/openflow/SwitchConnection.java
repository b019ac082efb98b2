package org.mpqoe.openflow;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.mpqoe.core.control.FlowRule;
import org.mpqoe.core.control.LldpProbes;
import org.mpqoe.core.control.MptcpControlPlane;
import org.mpqoe.core.control.Reaction;
import org.mpqoe.core.packet.Arp;
import org.mpqoe.core.packet.Frame;
import org.mpqoe.core.topology.NetworkView.PortView;
import org.mpqoe.core.topology.TopologyException;
import org.mpqoe.ofplan.OfEvents;
import org.mpqoe.ofplan.OfSwitch;
import org.mpqoe.ofplan.OfTranslator;
import org.mpqoe.ofplan.PlanApplier;
import org.projectfloodlight.openflow.protocol.OFBarrierReply;
import org.projectfloodlight.openflow.protocol.OFEchoReply;
import org.projectfloodlight.openflow.protocol.OFEchoRequest;
import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFeaturesReply;
import org.projectfloodlight.openflow.protocol.OFFlowRemoved;
import org.projectfloodlight.openflow.protocol.OFHello;
import org.projectfloodlight.openflow.protocol.OFHelloElem;
import org.projectfloodlight.openflow.protocol.OFHelloElemVersionbitmap;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortDescStatsReply;
import org.projectfloodlight.openflow.protocol.OFPortReason;
import org.projectfloodlight.openflow.protocol.OFPortStatsEntry;
import org.projectfloodlight.openflow.protocol.OFPortStatsReply;
import org.projectfloodlight.openflow.protocol.OFPortStatus;
import org.projectfloodlight.openflow.protocol.OFStatsReplyFlags;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.errormsg.OFBadActionErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFBadInstructionErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFBadMatchErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFBadRequestErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFFlowModFailedErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFGroupModFailedErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFHelloFailedErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFMeterModFailedErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFPortModFailedErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFQueueOpFailedErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFRoleRequestFailedErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFSwitchConfigFailedErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFTableFeaturesFailedErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFTableModFailedErrorMsg;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One switch connection: the OpenFlow 1.3 handshake (HELLO, FEATURES, SET_CONFIG, clearing the
 * tables, the proactive rules, a barrier), echo, and the events of a running switch. Its methods
 * run on the connection's event loop; {@link #send} and {@link #barrier} may be called from any
 * thread.
 *
 * <p>Besides the control plane's rules, every switch gets the rule that sends reflect probes back
 * ({@link LldpProbes#reflectRule}), so that link delays come out with every switch's own time
 * cancelled ({@link org.mpqoe.core.control.LinkDelayEstimator}).
 *
 * <p>Every {@link #ECHO_INTERVAL_MS} an ECHO request carries its send time ({@code System.nanoTime}
 * as 8 bytes); the reply brings it back, and the round trip goes to the link state tracker. With
 * reflected probes the delays need no round trip; it stays for the debug log (the control channel's
 * health) and for a link whose probes are not reflected.
 */
final class SwitchConnection extends SimpleChannelInboundHandler<OFMessage> implements OfSwitch {
  private static final Logger LOG = LoggerFactory.getLogger(SwitchConnection.class);

  /** OpenFlow 1.3's wire version, its bit in a HELLO version bitmap. */
  private static final int OF13 = OFVersion.OF_13.getWireVersion();

  /** Period of the ECHO requests that measure the control channel's round trip. */
  static final long ECHO_INTERVAL_MS = 1000;

  private final StandaloneController controller;
  private final OFFactory factory;
  private final AtomicLong xids = new AtomicLong(1);
  private final Map<Long, Runnable> barriers = new ConcurrentHashMap<>();
  private final Set<String> loggedOnce = ConcurrentHashMap.newKeySet();
  private final Map<Integer, Boolean> portUp = new ConcurrentHashMap<>();
  private final List<PortView> portDescs = new ArrayList<>();
  private volatile Channel channel;
  private volatile long dpid = -1;
  private volatile boolean known;
  private ScheduledFuture<?> stats;
  private ScheduledFuture<?> echo;

  SwitchConnection(StandaloneController controller) {
    this.controller = controller;
    this.factory = controller.translator().factory();
  }

  Channel channel() {
    return channel;
  }

  private String who() {
    return dpid == -1 ? String.valueOf(channel.remoteAddress()) : controller.name(dpid);
  }

  /**
   * Writes messages in order, each with a fresh xid, and flushes once. From another thread, all of
   * them go to the connection's event loop as one task (not one task per write).
   */
  @Override
  public void send(List<? extends OFMessage> messages) {
    Channel ch = channel;
    List<OFMessage> out = new ArrayList<>(messages.size());
    for (OFMessage m : messages) {
      out.add(OfTranslator.withXid(m, xids.getAndIncrement()));
    }
    Runnable write =
        () -> {
          out.forEach(ch::write);
          ch.flush();
        };
    if (ch.eventLoop().inEventLoop()) {
      write.run();
    } else {
      ch.eventLoop().execute(write);
    }
  }

  private void send(OFMessage m) {
    channel.writeAndFlush(OfTranslator.withXid(m, xids.getAndIncrement()));
  }

  /**
   * Sends a barrier request; {@code done} runs when its reply arrives, or when the connection
   * closes first.
   */
  @Override
  public void barrier(Runnable done) {
    long xid = xids.getAndIncrement();
    barriers.put(xid, done);
    channel.writeAndFlush(factory.buildBarrierRequest().setXid(xid).build());
    if (!channel.isActive() && barriers.remove(xid) != null) {
      done.run();
    }
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    channel = ctx.channel();
    controller.event("connection from " + channel.remoteAddress());
    List<OFHelloElem> elements =
        List.of(
            factory.buildHelloElemVersionbitmap().setBitmaps(List.of(U32.of(1 << OF13))).build());
    send(factory.buildHello().setElements(elements).build());
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (stats != null) {
      stats.cancel(false);
    }
    if (echo != null) {
      echo.cancel(false);
    }
    if (known) {
      controller.unregister(dpid, this);
    }
    controller.event(
        (dpid == -1 ? "connection " + channel.remoteAddress() : "switch " + who())
            + " disconnected");
    // Plans waiting for this switch's barrier go on without it.
    for (Long xid : new ArrayList<>(barriers.keySet())) {
      Runnable r = barriers.remove(xid);
      if (r != null) {
        r.run();
      }
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.warn("connection {}: {}; closing", who(), cause.toString());
    ctx.close();
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, OFMessage m) {
    try {
      switch (m.getType()) {
        case HELLO -> hello((OFHello) m);
        case ECHO_REQUEST ->
            send(
                factory
                    .buildEchoReply()
                    .setXid(m.getXid())
                    .setData(((OFEchoRequest) m).getData())
                    .build(),
                m.getXid());
        case ECHO_REPLY -> echoReply((OFEchoReply) m);
        case FEATURES_REPLY -> features((OFFeaturesReply) m);
        case BARRIER_REPLY -> barrierReply((OFBarrierReply) m);
        case PACKET_IN -> packetIn((OFPacketIn) m);
        case PORT_STATUS -> portStatus((OFPortStatus) m);
        case FLOW_REMOVED -> flowRemoved((OFFlowRemoved) m);
        case STATS_REPLY -> {
          if (m instanceof OFPortStatsReply r) {
            portStats(r);
          } else if (m instanceof OFPortDescStatsReply r) {
            portDesc(r);
          }
        }
        case ERROR -> LOG.warn("switch {}: {}", who(), describe((OFErrorMsg) m));
        default -> LOG.debug("switch {}: ignoring {}", who(), m.getType());
      }
    } catch (RuntimeException e) {
      LOG.error("switch {}: failed to handle {}", who(), m.getType(), e);
    }
  }

  /** Sends with a given xid (replies carry the request's). */
  private void send(OFMessage m, long xid) {
    channel.writeAndFlush(OfTranslator.withXid(m, xid));
  }

  private void hello(OFHello h) {
    if (!speaks13(h)) {
      LOG.error(
          "{} does not speak OpenFlow 1.3 (its HELLO is version {}): closing; configure the bridge"
              + " with protocols=OpenFlow13",
          who(),
          h.getVersion());
      controller.event("connection " + channel.remoteAddress() + " refused: no OpenFlow 1.3");
      OFHelloFailedErrorMsg err =
          factory
              .errorMsgs()
              .buildHelloFailedErrorMsg()
              .setCode(org.projectfloodlight.openflow.protocol.OFHelloFailedCode.INCOMPATIBLE)
              .build();
      channel.writeAndFlush(err).addListener(f -> channel.close());
      return;
    }
    send(factory.featuresRequest());
  }

  /**
   * Negotiation (OpenFlow 1.3.x section 6.3.1): with version bitmaps on both sides the highest
   * common version, else the smaller of the two HELLO versions; we offer only 1.3.
   */
  static boolean speaks13(OFHello h) {
    if (h.getVersion().getWireVersion() < OF13) {
      return false;
    }
    for (OFHelloElem e : h.getElements()) {
      if (e instanceof OFHelloElemVersionbitmap b && !b.getBitmaps().isEmpty()) {
        return (b.getBitmaps().get(0).getValue() & (1L << OF13)) != 0;
      }
    }
    return true;
  }

  private void features(OFFeaturesReply f) {
    if (dpid != -1) {
      return;
    }
    dpid = f.getDatapathId().getLong();
    MptcpControlPlane plane = controller.plane();
    List<FlowRule> rules;
    try {
      rules = plane.switchConnected(dpid);
    } catch (TopologyException e) {
      LOG.error(
          "switch {} at {} is not in topology {}: connection kept, no rules installed",
          StandaloneController.hex(dpid),
          channel.remoteAddress(),
          plane.topology().name());
      controller.event(
          "switch "
              + StandaloneController.hex(dpid)
              + " is not in topology "
              + plane.topology().name()
              + ": no rules installed");
      return;
    }
    known = true;
    controller.register(dpid, this);
    int n = rules.size();
    String name = who();
    OfTranslator t = controller.translator();
    controller
        .applier()
        .install(
            this,
            List.of(
                factory.buildSetConfig().setMissSendLen(OfTranslator.NO_BUFFER_LEN).build(),
                t.deleteAll(),
                t.flowAdd(LldpProbes.reflectRule(dpid))),
            rules,
            List.of(),
            () ->
                controller.event(
                    "switch "
                        + name
                        + " (dpid "
                        + StandaloneController.hex(dpid)
                        + ") connected: "
                        + n
                        + " rules installed"));
    // Ports (and their speeds) for link discovery; its probes go out when the reply is in.
    send(factory.buildPortDescStatsRequest().build());
    long period = controller.settings().statsInterval().toMillis();
    stats =
        channel
            .eventLoop()
            .scheduleAtFixedRate(this::requestPortStats, period, period, TimeUnit.MILLISECONDS);
    echo =
        channel
            .eventLoop()
            .scheduleAtFixedRate(this::requestEcho, 0, ECHO_INTERVAL_MS, TimeUnit.MILLISECONDS);
  }

  private void requestEcho() {
    if (channel.isActive()) {
      byte[] sent = ByteBuffer.allocate(Long.BYTES).putLong(System.nanoTime()).array();
      send(factory.buildEchoRequest().setData(sent).build());
    }
  }

  /** A reply to one of our ECHO requests: its round trip, for LLDP delays. */
  private void echoReply(OFEchoReply r) {
    long now = System.nanoTime();
    byte[] data = r.getData();
    if (!known || data.length != Long.BYTES) {
      return;
    }
    long sent = ByteBuffer.wrap(data).getLong();
    if (now < sent) {
      return;
    }
    double rttMs = (now - sent) / 1e6;
    controller.plane().links().controlRtt(dpid, rttMs);
    if (LOG.isDebugEnabled()) {
      LOG.debug("echo {} rtt {} ms", StandaloneController.hex(dpid), String.format("%.3f", rttMs));
    }
  }

  private void requestPortStats() {
    if (channel.isActive()) {
      send(factory.buildPortStatsRequest().setPortNo(OFPort.ANY).build());
    }
  }

  /** A PORT_DESC reply, possibly in several parts (OpenFlow 1.3 section 7.3.5.7). */
  private void portDesc(OFPortDescStatsReply r) {
    if (!known) {
      return;
    }
    for (OFPortDesc d : r.getEntries()) {
      PortView v = portView(d, false);
      if (v != null) {
        portDescs.add(v);
      }
    }
    if (!r.getFlags().contains(OFStatsReplyFlags.REPLY_MORE)) {
      List<PortView> ports = List.copyOf(portDescs);
      portDescs.clear();
      controller.discovery().switchReady(dpid, ports);
    }
  }

  /**
   * A port as discovery sees it: number, curr_speed (kbit/s) and whether it is up; null for the
   * switch's reserved ports (LOCAL and the like), which no link or host uses.
   */
  static PortView portView(OFPortDesc d, boolean gone) {
    int port = d.getPortNo().getPortNumber();
    if (port <= 0) {
      return null;
    }
    return new PortView(port, Math.max(0, d.getCurrSpeed()), OfEvents.portUp(d, gone));
  }

  private void barrierReply(OFBarrierReply r) {
    Runnable done = barriers.remove(r.getXid());
    if (done != null) {
      done.run();
    }
  }

  private void packetIn(OFPacketIn p) {
    if (!known) {
      if (loggedOnce.add("packet-in")) {
        LOG.warn(
            "packet-in from switch {} that is not in the topology: ignored (logged once)", who());
      }
      return;
    }
    OFPort in = p.getMatch().get(MatchField.IN_PORT);
    if (in == null) {
      LOG.warn("switch {}: packet-in without in_port ignored", who());
      return;
    }
    int port = in.getPortNumber();
    byte[] frame = p.getData();
    if (LldpProbes.isLldp(frame)) {
      controller.discovery().lldpIn(dpid, port, frame);
      return;
    }
    long start = System.nanoTime();
    Frame f = Frame.parse(frame);
    controller.discovery().packetIn(dpid, port, f);
    Reaction r = controller.plane().packetIn(dpid, port, f, frame);
    long decided = System.nanoTime() - start;
    if (r.kind() == Reaction.Kind.DROPPED && f.hasArp() && f.arp().op() == Arp.REQUEST) {
      controller.discovery().floodUnknownArp(dpid, port, frame);
    }
    String line = "packet-in " + who() + " port " + port + ": " + r.kind() + " " + r.log();
    if (r.plan().isEmpty()) {
      controller.event(line);
      return;
    }
    // The line goes out once the plan did, with the time of each step since the packet-in.
    controller.apply(
        r.plan(),
        a -> {
          if (a.packetOutNanos() >= 0) {
            controller.plane().stats().released(decided + a.packetOutNanos());
          }
          controller.event(line + " " + timing(decided, a));
        });
  }

  /** "[decided 0.21, 12 flow mods to 4 switches sent 0.40, confirmed 2.95, packet-out 3.02 ms]". */
  static String timing(long decidedNanos, PlanApplier.Applied a) {
    StringBuilder b = new StringBuilder(String.format("[decided %.2f", decidedNanos / 1e6));
    if (a.switches() > 0) {
      b.append(
          String.format(
              ", %d flow mods to %d switches sent %.2f, confirmed %.2f",
              a.flowMods(),
              a.switches(),
              (decidedNanos + a.sentNanos()) / 1e6,
              (decidedNanos + a.confirmedNanos()) / 1e6));
    }
    if (a.packetOutNanos() >= 0) {
      b.append(String.format(", packet-out %.2f", (decidedNanos + a.packetOutNanos()) / 1e6));
    }
    return b.append(" ms]").toString();
  }

  private void portStatus(OFPortStatus s) {
    if (!known) {
      return;
    }
    OFPortDesc d = s.getDesc();
    int port = d.getPortNo().getPortNumber();
    boolean deleted = s.getReason() == OFPortReason.DELETE;
    boolean up = OfEvents.portUp(d, deleted);
    if (port > 0) {
      controller.discovery().portChanged(dpid, port, deleted ? null : portView(d, false));
    }
    Boolean before = portUp.put(port, up);
    var plan = controller.plane().portStatus(dpid, port, up);
    if (before == null || before != up || !plan.isEmpty()) {
      controller.event(
          String.format(
              "port %s/%d %s: %d removal(s), %d install(s), %d modification(s)",
              who(),
              port,
              up ? "up" : "down",
              plan.removals().size(),
              plan.installs().size(),
              plan.modifications().size()));
    }
    controller.apply(plan);
  }

  private void flowRemoved(OFFlowRemoved f) {
    if (known) {
      controller
          .plane()
          .flowRemoved(dpid, f.getCookie().getValue(), OfEvents.expired(f.getReason()));
    }
  }

  private void portStats(OFPortStatsReply r) {
    if (!known) {
      return;
    }
    long now = System.nanoTime();
    for (OFPortStatsEntry e : r.getEntries()) {
      controller
          .plane()
          .portStats(
              dpid,
              e.getPortNo().getPortNumber(),
              e.getTxBytes().getValue(),
              e.getRxBytes().getValue(),
              now);
    }
  }

  /** "error FLOW_MOD_FAILED/TABLE_FULL (xid 12, caused by OFFlowAddVer13(...))". */
  static String describe(OFErrorMsg e) {
    String code = code(e);
    String cause =
        e.getData()
            .getParsedMessage()
            .transform(m -> ", caused by " + abbreviate(m.toString(), 400))
            .or("");
    return "error "
        + e.getErrType()
        + (code == null ? "" : "/" + code)
        + " (xid "
        + e.getXid()
        + cause
        + ")";
  }

  private static String abbreviate(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max) + "...";
  }

  private static String code(OFErrorMsg e) {
    Object c = null;
    if (e instanceof OFBadRequestErrorMsg x) {
      c = x.getCode();
    } else if (e instanceof OFBadActionErrorMsg x) {
      c = x.getCode();
    } else if (e instanceof OFBadInstructionErrorMsg x) {
      c = x.getCode();
    } else if (e instanceof OFBadMatchErrorMsg x) {
      c = x.getCode();
    } else if (e instanceof OFFlowModFailedErrorMsg x) {
      c = x.getCode();
    } else if (e instanceof OFGroupModFailedErrorMsg x) {
      c = x.getCode();
    } else if (e instanceof OFPortModFailedErrorMsg x) {
      c = x.getCode();
    } else if (e instanceof OFTableModFailedErrorMsg x) {
      c = x.getCode();
    } else if (e instanceof OFQueueOpFailedErrorMsg x) {
      c = x.getCode();
    } else if (e instanceof OFSwitchConfigFailedErrorMsg x) {
      c = x.getCode();
    } else if (e instanceof OFRoleRequestFailedErrorMsg x) {
      c = x.getCode();
    } else if (e instanceof OFMeterModFailedErrorMsg x) {
      c = x.getCode();
    } else if (e instanceof OFTableFeaturesFailedErrorMsg x) {
      c = x.getCode();
    } else if (e instanceof OFHelloFailedErrorMsg x) {
      c = x.getCode();
    }
    return c == null ? null : c.toString();
  }
}
