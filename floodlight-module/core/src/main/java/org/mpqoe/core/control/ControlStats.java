package org.mpqoe.core.control;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import org.mpqoe.core.mptcp.MptcpHandshake;
import org.mpqoe.core.mptcp.ParseStats;

/**
 * What the control plane did: packet-ins per kind and per handshake step, the option parser's
 * counters, rules asked for and reported removed, selections, and the time of each step of a
 * packet-in. Thread-safe; {@link #snapshot} gives an immutable copy (REST {@code GET stats}).
 */
public final class ControlStats {
  /** Timed steps. */
  public enum Step {
    /** A whole packet-in, from the frame to the reaction. */
    PACKET_IN,
    /** Frame parsing and handshake classification. */
    CLASSIFICATION,
    /** One run of the path selector. */
    SELECTION,
    /** Connection and subflow bookkeeping and rule building (selection excluded). */
    PLAN,
    /**
     * In the runtime, for a packet-in whose plan sends the packet on: from the packet-in to the
     * packet-out (decision, flow mods, barriers), as {@link #released} reports it.
     */
    RELEASE
  }

  /** Rule counters. */
  public enum Rules {
    /** Rules in plans to install. */
    INSTALLED,
    /** Rules in plans to modify. */
    MODIFIED,
    /** Deletions in plans (each selects rules by cookie). */
    REMOVALS,
    /** Rules that switches reported expired. */
    EXPIRED,
    /** Rules that switches reported deleted. */
    DELETED
  }

  /** Percentiles of one step over the last {@link #WINDOW} samples, in microseconds. */
  public record Timing(long count, double p50Us, double p90Us, double p99Us, double maxUs) {}

  /** An immutable copy of every counter. */
  public record Snapshot(
      Map<Reaction.Kind, Long> packetIns,
      Map<MptcpHandshake.Step, Long> handshakeSteps,
      Map<ParseStats.Counter, Long> parse,
      Map<Rules, Long> rules,
      long selections,
      Map<Step, Timing> timings) {
    public Snapshot {
      packetIns = Map.copyOf(packetIns);
      handshakeSteps = Map.copyOf(handshakeSteps);
      parse = Map.copyOf(parse);
      rules = Map.copyOf(rules);
      timings = Map.copyOf(timings);
    }
  }

  /** Samples kept per step for the percentiles. */
  public static final int WINDOW = 4096;

  private final ParseStats parse = new ParseStats();
  private final AtomicLongArray kinds = new AtomicLongArray(Reaction.Kind.values().length);
  private final AtomicLongArray steps = new AtomicLongArray(MptcpHandshake.Step.values().length);
  private final AtomicLongArray rules = new AtomicLongArray(Rules.values().length);
  private final Window[] windows = new Window[Step.values().length];

  public ControlStats() {
    for (int i = 0; i < windows.length; i++) {
      windows[i] = new Window();
    }
  }

  /** The option parser's counters (filled by classification). */
  public ParseStats parse() {
    return parse;
  }

  void packetIn(Reaction.Kind kind) {
    kinds.incrementAndGet(kind.ordinal());
  }

  void handshake(MptcpHandshake.Step step) {
    steps.incrementAndGet(step.ordinal());
  }

  /** Counts the rules a plan asks for. */
  void plan(FlowPlan plan) {
    rules.addAndGet(Rules.INSTALLED.ordinal(), plan.installs().size());
    rules.addAndGet(Rules.MODIFIED.ordinal(), plan.modifications().size());
    rules.addAndGet(Rules.REMOVALS.ordinal(), plan.removals().size());
  }

  void installed(int n) {
    rules.addAndGet(Rules.INSTALLED.ordinal(), n);
  }

  void removed(boolean expired) {
    rules.incrementAndGet((expired ? Rules.EXPIRED : Rules.DELETED).ordinal());
  }

  /** A runtime sent a packet-in's packet on this long after the packet-in arrived. */
  public void released(long nanos) {
    time(Step.RELEASE, nanos);
  }

  void time(Step step, long nanos) {
    windows[step.ordinal()].add(nanos);
  }

  public Snapshot snapshot() {
    Map<Reaction.Kind, Long> k = new EnumMap<>(Reaction.Kind.class);
    for (Reaction.Kind x : Reaction.Kind.values()) {
      k.put(x, kinds.get(x.ordinal()));
    }
    Map<MptcpHandshake.Step, Long> s = new EnumMap<>(MptcpHandshake.Step.class);
    for (MptcpHandshake.Step x : MptcpHandshake.Step.values()) {
      s.put(x, steps.get(x.ordinal()));
    }
    Map<Rules, Long> r = new EnumMap<>(Rules.class);
    for (Rules x : Rules.values()) {
      r.put(x, rules.get(x.ordinal()));
    }
    Map<Step, Timing> t = new EnumMap<>(Step.class);
    for (Step x : Step.values()) {
      t.put(x, windows[x.ordinal()].timing());
    }
    return new Snapshot(k, s, parse.snapshot(), r, t.get(Step.SELECTION).count(), t);
  }

  /** The last {@link #WINDOW} samples of one step, and how many there were in all. */
  private static final class Window {
    private final long[] nanos = new long[WINDOW];
    private long count;

    synchronized void add(long n) {
      nanos[(int) (count % WINDOW)] = n;
      count++;
    }

    synchronized Timing timing() {
      int n = (int) Math.min(count, WINDOW);
      if (n == 0) {
        return new Timing(0, 0, 0, 0, 0);
      }
      long[] sorted = Arrays.copyOf(nanos, n);
      Arrays.sort(sorted);
      return new Timing(
          count, us(sorted, 0.50), us(sorted, 0.90), us(sorted, 0.99), sorted[n - 1] / 1e3);
    }

    /** Nearest-rank percentile. */
    private static double us(long[] sorted, double q) {
      int rank = (int) Math.ceil(q * sorted.length);
      return sorted[Math.max(0, rank - 1)] / 1e3;
    }
  }
}
