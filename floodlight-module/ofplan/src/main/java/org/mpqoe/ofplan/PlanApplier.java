package org.mpqoe.ofplan;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.mpqoe.core.control.FlowPlan;
import org.mpqoe.core.control.FlowRule;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the core's plans to switches, the same way in both runtimes and in the order {@link
 * FlowPlan} prescribes: per switch its removals, installs and modifications, then a barrier on
 * every switch touched; the packet-out goes out only once every one of those barriers completed, so
 * the released packet never overtakes the rules it needs.
 *
 * <p>The packet-out's own switch (the first hop of a held SYN) gets its flow mods last: once the
 * other switches confirmed theirs, followed by a barrier and then, on the same connection, the
 * packet-out, which the switch may not handle before the barrier (OpenFlow 1.3.5, section 6.2). Its
 * rules would otherwise forward the client's retransmission of the held packet while the original
 * still waits for the other switches, and the copies would reach the server in the wrong order (a
 * SYN and its retransmission: the server answers the older one, second, with a bare ACK, and the
 * client falls back from MPTCP). Until then the retransmission comes to the controller, which holds
 * it back.
 *
 * <p>Never blocks: the barriers' completions count down. Thread-safe if {@link Switches} is.
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

  /**
   * How one plan went out, in nanoseconds from the start of {@link #apply(FlowPlan, Consumer)}.
   *
   * @param switches switches that got flow mods (each also a barrier)
   * @param flowMods flow mods sent
   * @param sentNanos the flow mods and barriers of every switch but the packet-out's handed to the
   *     connections
   * @param confirmedNanos the last of their barriers completed (= sentNanos when there was none);
   *     the packet-out's switch then gets its flow mods, a barrier and the packet-out
   * @param packetOutNanos the packet-out handed to its switch (-1 when the plan has none or it was
   *     dropped)
   */
  public record Applied(
      int switches, int flowMods, long sentNanos, long confirmedNanos, long packetOutNanos) {}

  private final OfTranslator translator;
  private final Switches switches;

  /** Rounds of {@link OfTranslator#warmUp} at construction. */
  static final int WARM_UP_ROUNDS = 300;

  /** Also warms the translator up ({@link OfTranslator#warmUp}). */
  public PlanApplier(OfTranslator translator, Switches switches) {
    this.translator = Objects.requireNonNull(translator);
    this.switches = Objects.requireNonNull(switches);
    translator.warmUp(WARM_UP_ROUNDS);
  }

  public OfTranslator translator() {
    return translator;
  }

  /**
   * Applies a plan. Flow mods for a switch that is not connected are dropped with a warning (the
   * core re-sends a switch's rules when it connects); so is a packet-out for one.
   */
  public void apply(FlowPlan plan) {
    apply(plan, null);
  }

  /**
   * {@link #apply(FlowPlan)}, then {@code done} (if not null) with the timings, on the thread that
   * completed the last barrier, once the packet-out went out. Not called for an empty plan.
   */
  public void apply(FlowPlan plan, Consumer<Applied> done) {
    if (plan == null || plan.isEmpty()) {
      return;
    }
    long start = System.nanoTime();
    int flowMods = 0;
    List<OfSwitch> touched = new ArrayList<>();
    Map<Long, List<OFMessage>> mods = translator.flowMods(plan, switches.managed());
    FlowPlan.PacketOut po = plan.packetOut();
    List<OFMessage> last = po == null ? null : mods.remove(po.dpid());
    OfSwitch lastSwitch = last == null ? null : switches.get(po.dpid());
    if (last != null && lastSwitch == null) {
      LOG.warn(
          "switch {} is not connected: {} flow mod(s) not sent",
          switches.name(po.dpid()),
          last.size());
    } else if (last != null) {
      flowMods += last.size();
    }
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
      flowMods += e.getValue().size();
      touched.add(sw);
    }
    int n = touched.size() + (lastSwitch != null ? 1 : 0);
    int sentMods = flowMods;
    long[] sent = {0};
    Runnable release =
        () -> {
          long confirmed = System.nanoTime() - start;
          if (lastSwitch != null) {
            lastSwitch.send(last);
            lastSwitch.barrier(() -> {});
          }
          boolean out = po != null && packetOut(po);
          if (done != null) {
            long released = out ? System.nanoTime() - start : -1;
            done.accept(new Applied(n, sentMods, sent[0], confirmed, released));
          }
        };
    afterBarriers(touched, release, () -> sent[0] = System.nanoTime() - start);
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
    afterBarriers(List.of(sw), done, () -> {});
  }

  /**
   * A barrier on each switch; {@code sent} runs once every barrier was handed over, {@code then}
   * (if any) once all of them completed. The count starts one higher so that a barrier that
   * completes at once cannot release {@code then} before the other switches got theirs.
   */
  private static void afterBarriers(List<OfSwitch> touched, Runnable then, Runnable sent) {
    AtomicInteger pending = new AtomicInteger(touched.size() + 1);
    Runnable one =
        () -> {
          if (pending.decrementAndGet() == 0 && then != null) {
            then.run();
          }
        };
    for (OfSwitch sw : touched) {
      sw.barrier(one);
    }
    sent.run();
    one.run();
  }

  /** True when the packet-out was handed to its switch. */
  private boolean packetOut(FlowPlan.PacketOut po) {
    OfSwitch sw = switches.get(po.dpid());
    if (sw == null) {
      LOG.warn("switch {} is not connected: packet-out dropped", switches.name(po.dpid()));
      return false;
    }
    try {
      sw.send(List.of(translator.packetOut(po)));
      return true;
    } catch (RuntimeException e) {
      LOG.warn("switch {}: cannot send the packet-out: {}", switches.name(po.dpid()), e.toString());
      return false;
    }
  }
}
