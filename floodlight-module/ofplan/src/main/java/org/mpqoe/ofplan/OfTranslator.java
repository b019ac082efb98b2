package org.mpqoe.ofplan;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mpqoe.core.control.FlowAction;
import org.mpqoe.core.control.FlowMatch;
import org.mpqoe.core.control.FlowPlan;
import org.mpqoe.core.control.FlowRule;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowDelete;
import org.projectfloodlight.openflow.protocol.OFFlowModFlags;
import org.projectfloodlight.openflow.protocol.OFFlowModifyStrict;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.action.OFAction;
import org.projectfloodlight.openflow.protocol.action.OFActions;
import org.projectfloodlight.openflow.protocol.instruction.OFInstruction;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.protocol.oxm.OFOxms;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IpProtocol;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFBooleanValue;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFGroup;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.TransportPort;
import org.projectfloodlight.openflow.types.U16;
import org.projectfloodlight.openflow.types.U32;
import org.projectfloodlight.openflow.types.U64;

/**
 * Translates the core's rule model ({@link FlowRule}, {@link FlowPlan}) into OpenFlow 1.3 messages.
 * Stateless apart from the factory; the caller sets transaction ids ({@link #withXid}).
 */
public final class OfTranslator {
  /** OFPCML_NO_BUFFER: send the whole frame to the controller, never a buffer id. */
  public static final int NO_BUFFER_LEN = 0xffff;

  /** TCP flag bits (byte 13 of the header). */
  private static final int SYN = 0x02;

  private static final int ACK = 0x10;

  private final OFFactory factory = OFFactories.getFactory(OFVersion.OF_13);
  private final OFActions actions = factory.actions();
  private final OFOxms oxms = factory.oxms();

  public OFFactory factory() {
    return factory;
  }

  /** OFPT_FLOW_MOD / OFPFC_ADD for one rule. */
  public OFFlowAdd flowAdd(FlowRule rule) {
    return factory
        .buildFlowAdd()
        .setTableId(TableId.of(rule.table()))
        .setPriority(rule.priority())
        .setIdleTimeout(rule.idleTimeoutS())
        .setHardTimeout(0)
        .setCookie(U64.of(rule.cookie()))
        .setBufferId(OFBufferId.NO_BUFFER)
        .setFlags(flags(rule))
        .setMatch(match(rule.match()))
        .setInstructions(instructions(rule.actions()))
        .build();
  }

  /**
   * OFPT_FLOW_MOD / OFPFC_MODIFY_STRICT: same table, match and priority, new instructions (cookie
   * and flags as given; OpenFlow 1.3 keeps the entry's timeouts and counters).
   */
  public OFFlowModifyStrict flowModify(FlowRule rule) {
    return factory
        .buildFlowModifyStrict()
        .setTableId(TableId.of(rule.table()))
        .setPriority(rule.priority())
        .setIdleTimeout(rule.idleTimeoutS())
        .setCookie(U64.of(rule.cookie()))
        .setBufferId(OFBufferId.NO_BUFFER)
        .setOutPort(OFPort.ANY)
        .setOutGroup(OFGroup.ANY)
        .setFlags(flags(rule))
        .setMatch(match(rule.match()))
        .setInstructions(instructions(rule.actions()))
        .build();
  }

  /** OFPT_FLOW_MOD / OFPFC_DELETE of every entry, all tables, whose cookie matches under mask. */
  public OFFlowDelete flowDelete(FlowPlan.Removal removal) {
    return flowDelete(removal.cookie(), removal.cookieMask());
  }

  /** Deletes every flow entry of every table (mask 0 selects all cookies). */
  public OFFlowDelete deleteAll() {
    return flowDelete(0, 0);
  }

  private OFFlowDelete flowDelete(long cookie, long mask) {
    return factory
        .buildFlowDelete()
        .setTableId(TableId.ALL)
        .setOutPort(OFPort.ANY)
        .setOutGroup(OFGroup.ANY)
        .setCookie(U64.of(cookie))
        .setCookieMask(U64.of(mask))
        .setMatch(factory.buildMatch().build())
        .build();
  }

  /** OFPT_PACKET_OUT carrying the frame itself (no switch buffer). */
  public OFPacketOut packetOut(FlowPlan.PacketOut out) {
    if (out.actions().stream().anyMatch(a -> a instanceof FlowAction.GotoTable)) {
      throw new IllegalArgumentException("a packet-out cannot go to a table: " + out.actions());
    }
    return factory
        .buildPacketOut()
        .setBufferId(OFBufferId.NO_BUFFER)
        .setInPort(OFPort.ofInt(out.inPort()))
        .setActions(applyActions(out.actions()))
        .setData(out.frame())
        .build();
  }

  /**
   * The flow mods of a plan per switch, in the plan's order: removals, installs, modifications. A
   * removal for dpid 0 goes to every switch in {@code connected}; rules for switches not in {@code
   * connected} are still listed (the caller decides what to do with a switch it cannot reach).
   * Switches appear in the order they are first touched.
   */
  public Map<Long, List<OFMessage>> flowMods(FlowPlan plan, Collection<Long> connected) {
    Map<Long, List<OFMessage>> out = new LinkedHashMap<>();
    for (FlowPlan.Removal r : plan.removals()) {
      Collection<Long> targets = r.dpid() == 0 ? connected : List.of(r.dpid());
      for (long dpid : targets) {
        out.computeIfAbsent(dpid, d -> new ArrayList<>()).add(flowDelete(r));
      }
    }
    for (FlowRule rule : plan.installs()) {
      out.computeIfAbsent(rule.dpid(), d -> new ArrayList<>()).add(flowAdd(rule));
    }
    for (FlowRule rule : plan.modifications()) {
      out.computeIfAbsent(rule.dpid(), d -> new ArrayList<>()).add(flowModify(rule));
    }
    return out;
  }

  /**
   * Translates and encodes a sample of every kind of message {@code rounds} times and throws the
   * bytes away, so that openflowj's classes are loaded and compiled before the first SYN needs them
   * (the first subflow plan took some 15 ms to translate and send otherwise).
   */
  public void warmUp(int rounds) {
    FlowMatch.Subflow up = new FlowMatch.Subflow(0x0a000001, 0x0a000002, 40000, 80);
    List<FlowRule> rules =
        List.of(
            new FlowRule(1, 0, 2, up, List.of(new FlowAction.Output(1)), 10, 1, true),
            new FlowRule(
                1,
                0,
                3,
                new FlowMatch.SynAck(up.reversed()),
                List.of(
                    new FlowAction.ToController(),
                    new FlowAction.PushLabels(List.of(16001, 16002)),
                    new FlowAction.GotoTable(1)),
                10,
                1,
                false),
            new FlowRule(
                1,
                1,
                2,
                new FlowMatch.Label(16001, false),
                List.of(new FlowAction.PopLabel(false), new FlowAction.Output(2)),
                0,
                1,
                false));
    FlowPlan plan =
        new FlowPlan(
            List.of(new FlowPlan.Removal(1, 1, -1L)),
            rules,
            rules.subList(0, 1),
            new FlowPlan.PacketOut(
                1, 1, new byte[64], List.of(new FlowAction.Output(FlowAction.PORT_TABLE))));
    ByteBuf buf = Unpooled.buffer(4096);
    for (int i = 0; i < rounds; i++) {
      for (List<OFMessage> mods : flowMods(plan, List.of(1L)).values()) {
        for (OFMessage m : mods) {
          withXid(m, i).writeTo(buf);
        }
      }
      packetOut(plan.packetOut()).writeTo(buf);
      factory.buildBarrierRequest().setXid(i).build().writeTo(buf);
      buf.clear();
    }
    buf.release();
  }

  /** The same message with another transaction id. */
  public static OFMessage withXid(OFMessage m, long xid) {
    return m.createBuilder().setXid(xid).build();
  }

  private static Set<OFFlowModFlags> flags(FlowRule rule) {
    return rule.notifyRemoval()
        ? EnumSet.of(OFFlowModFlags.SEND_FLOW_REM)
        : EnumSet.noneOf(OFFlowModFlags.class);
  }

  /** The OXM match of a core match; prerequisite fields (eth_type, ip_proto) come first. */
  public Match match(FlowMatch m) {
    Match.Builder b = factory.buildMatch();
    if (m instanceof FlowMatch.Subflow s) {
      subflow(b, s);
    } else if (m instanceof FlowMatch.SynAck a) {
      // OpenFlow 1.3 has no tcp_flags (1.5 has): Open vSwitch's experimenter field (ONF's
      // tcp_flags extension, which Open vSwitch accepts in 1.3).
      subflow(b, a.subflow())
          .setMasked(MatchField.OVS_TCP_FLAGS, U16.of(SYN | ACK), U16.of(SYN | ACK));
    } else if (m instanceof FlowMatch.TcpSyn t) {
      if (t.inPort() > 0) {
        b.setExact(MatchField.IN_PORT, OFPort.of(t.inPort()));
      }
      b.setExact(MatchField.ETH_TYPE, EthType.IPv4)
          .setExact(MatchField.IP_PROTO, IpProtocol.TCP)
          .setMasked(MatchField.OVS_TCP_FLAGS, U16.of(SYN), U16.of(SYN | ACK));
    } else if (m instanceof FlowMatch.Label l) {
      b.setExact(MatchField.ETH_TYPE, EthType.MPLS_UNICAST)
          .setExact(MatchField.MPLS_LABEL, U32.of(l.label()))
          .setExact(MatchField.MPLS_BOS, OFBooleanValue.of(l.bottomOfStack()));
    } else if (m instanceof FlowMatch.AnyMpls) {
      b.setExact(MatchField.ETH_TYPE, EthType.MPLS_UNICAST);
    } else if (m instanceof FlowMatch.Ipv4Protocol p) {
      b.setExact(MatchField.ETH_TYPE, EthType.IPv4)
          .setExact(MatchField.IP_PROTO, IpProtocol.of((short) p.ipProto()))
          .setExact(MatchField.IPV4_DST, IPv4Address.of(p.dstIp()));
    } else if (m instanceof FlowMatch.Ipv4Destination d) {
      b.setExact(MatchField.ETH_TYPE, EthType.IPv4)
          .setExact(MatchField.IPV4_DST, IPv4Address.of(d.dstIp()));
    } else if (m instanceof FlowMatch.EthDestination e) {
      b.setExact(MatchField.ETH_TYPE, EthType.of(e.ethType()))
          .setExact(MatchField.ETH_DST, MacAddress.of(e.dstMac()));
    } else if (!(m instanceof FlowMatch.All)) {
      throw new IllegalArgumentException("unsupported match " + m);
    }
    return b.build();
  }

  private static Match.Builder subflow(Match.Builder b, FlowMatch.Subflow s) {
    return b.setExact(MatchField.ETH_TYPE, EthType.IPv4)
        .setExact(MatchField.IP_PROTO, IpProtocol.TCP)
        .setExact(MatchField.IPV4_SRC, IPv4Address.of(s.srcIp()))
        .setExact(MatchField.IPV4_DST, IPv4Address.of(s.dstIp()))
        .setExact(MatchField.TCP_SRC, TransportPort.of(s.srcPort()))
        .setExact(MatchField.TCP_DST, TransportPort.of(s.dstPort()));
  }

  /**
   * Instructions: one apply-actions with every action except {@link FlowAction.GotoTable} (left out
   * when there is none), then the goto-table instruction if any. No instructions = drop.
   */
  public List<OFInstruction> instructions(List<FlowAction> list) {
    List<OFInstruction> out = new ArrayList<>();
    List<OFAction> apply = applyActions(list);
    if (!apply.isEmpty()) {
      out.add(factory.instructions().applyActions(apply));
    }
    FlowAction.GotoTable go = null;
    for (FlowAction a : list) {
      if (a instanceof FlowAction.GotoTable g) {
        if (go != null) {
          throw new IllegalArgumentException("more than one goto-table in " + list);
        }
        go = g;
      }
    }
    if (go != null) {
      out.add(factory.instructions().gotoTable(TableId.of(go.table())));
    }
    return out;
  }

  /** The OpenFlow actions of a core action list, goto-table excluded. */
  public List<OFAction> applyActions(List<FlowAction> list) {
    List<OFAction> out = new ArrayList<>();
    for (FlowAction a : list) {
      if (a instanceof FlowAction.Output o) {
        out.add(actions.output(OFPort.ofInt(o.port()), NO_BUFFER_LEN));
      } else if (a instanceof FlowAction.ToController) {
        out.add(actions.output(OFPort.CONTROLLER, NO_BUFFER_LEN));
      } else if (a instanceof FlowAction.PushLabels p) {
        // Each push puts a new label on top: push the last label first so that labels.get(0)
        // ends on top of the stack.
        List<Integer> labels = p.labels();
        for (int i = labels.size() - 1; i >= 0; i--) {
          out.add(actions.pushMpls(EthType.MPLS_UNICAST));
          out.add(actions.setField(oxms.mplsLabel(U32.of(labels.get(i)))));
        }
      } else if (a instanceof FlowAction.SetEthDestination d) {
        out.add(actions.setField(oxms.ethDst(MacAddress.of(d.mac()))));
      } else if (a instanceof FlowAction.PopLabel p) {
        out.add(actions.popMpls(p.bottomOfStack() ? EthType.IPv4 : EthType.MPLS_UNICAST));
      } else if (!(a instanceof FlowAction.GotoTable)) {
        throw new IllegalArgumentException("unsupported action " + a);
      }
    }
    return out;
  }
}
