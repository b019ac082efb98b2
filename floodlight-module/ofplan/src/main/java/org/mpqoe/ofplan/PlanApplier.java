package org.mpqoe.ofplan;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import org.mpqoe.core.control.FlowPlan;
import org.mpqoe.core.control.FlowRule;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the core's plans to switches, the same way in both runtimes and in the order {@link
 * FlowPlan} prescribes: per switch its removals, installs and modifications, then a barrier on
 * every switch touched; the packet-out goes out only once every one of those barriers completed, so
 * the released packet never overtakes the rules it needs. Never blocks: the barriers' completions
 * count down. Thread-safe if {@link Switches} is.
 */
public final class PlanApplier {
  private static final Logger LOG = LoggerFactory.getLogger(PlanApplier.class);

  /** The switches a runtime can program. */
  public interface Switches {
    /** The connected, programmable switch with this DPID, or null. */
    OfSwitch get(long dpid);

    /** The DPIDs a removal "on every switch" (DPID 0 in a plan) goes to. */
    Collection<Long> managed();

    /** A switch's name for log lines. */
    default String name(long dpid) {
      return String.format("%016x", dpid);
    }
  }

  private final OfTranslator translator;
  private final Switches switches;

  public PlanApplier(OfTranslator translator, Switches switches) {
    this.translator = Objects.requireNonNull(translator);
    this.switches = Objects.requireNonNull(switches);
  }

  public OfTranslator translator() {
    return translator;
  }

  /**
   * Applies a plan. Flow mods for a switch that is not connected are dropped with a warning (the
   * core re-sends a switch's rules when it connects); so is a packet-out for one.
   */
  public void apply(FlowPlan plan) {
    if (plan == null || plan.isEmpty()) {
      return;
    }
    List<OfSwitch> touched = new ArrayList<>();
    Map<Long, List<OFMessage>> mods = translator.flowMods(plan, switches.managed());
    for (Map.Entry<Long, List<OFMessage>> e : mods.entrySet()) {
      OfSwitch sw = switches.get(e.getKey());
      if (sw == null) {
        LOG.warn(
            "switch {} is not connected: {} flow mod(s) not sent",
            switches.name(e.getKey()),
            e.getValue().size());
        continue;
      }
      sw.send(e.getValue());
      touched.add(sw);
    }
    FlowPlan.PacketOut po = plan.packetOut();
    Runnable release = po == null ? null : () -> packetOut(po);
    afterBarriers(touched, release);
  }

  /**
   * Sets a switch up: {@code before} (the runtime's own messages, e.g. clearing the tables), the
   * core's rules, {@code after} (more of the runtime's own flow mods), then a barrier; {@code done}
   * runs when that barrier completed.
   */
  public void install(
      OfSwitch sw,
      List<? extends OFMessage> before,
      List<FlowRule> rules,
      List<? extends OFMessage> after,
      Runnable done) {
    List<OFMessage> out = new ArrayList<>(before.size() + rules.size() + after.size());
    out.addAll(before);
    rules.forEach(r -> out.add(translator.flowAdd(r)));
    out.addAll(after);
    sw.send(out);
    afterBarriers(List.of(sw), done);
  }

  /** A barrier on each switch; {@code then} (if any) runs once all of them completed. */
  private static void afterBarriers(List<OfSwitch> touched, Runnable then) {
    if (touched.isEmpty()) {
      if (then != null) {
        then.run();
      }
      return;
    }
    AtomicInteger pending = new AtomicInteger(touched.size());
    for (OfSwitch sw : touched) {
      sw.barrier(
          () -> {
            if (pending.decrementAndGet() == 0 && then != null) {
              then.run();
            }
          });
    }
  }

  private void packetOut(FlowPlan.PacketOut po) {
    OfSwitch sw = switches.get(po.dpid());
    if (sw == null) {
      LOG.warn("switch {} is not connected: packet-out dropped", switches.name(po.dpid()));
      return;
    }
    try {
      sw.send(List.of(translator.packetOut(po)));
    } catch (RuntimeException e) {
      LOG.warn("switch {}: cannot send the packet-out: {}", switches.name(po.dpid()), e.toString());
    }
  }
}
