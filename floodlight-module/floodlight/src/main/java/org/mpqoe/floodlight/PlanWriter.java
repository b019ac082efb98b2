package org.mpqoe.floodlight;

import com.google.common.util.concurrent.ListenableFuture;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongPredicate;
import net.floodlightcontroller.core.IOFSwitch;
import net.floodlightcontroller.core.internal.IOFSwitchService;
import org.mpqoe.core.control.FlowPlan;
import org.mpqoe.core.control.FlowRule;
import org.mpqoe.openflow.OfTranslator;
import org.projectfloodlight.openflow.protocol.OFBarrierReply;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the core's plans through Floodlight's switches, in the order {@link FlowPlan} prescribes:
 * per switch its removals, installs and modifications, then a barrier on every switch touched; the
 * packet-out goes out once every barrier was answered (or failed: switch gone, Floodlight's reply
 * timeout). The messages are the standalone runtime's ({@link OfTranslator}, OpenFlow 1.3), so a
 * switch gets them only if it negotiated OpenFlow 1.3 with Floodlight. Thread-safe.
 */
final class PlanWriter {
  private static final Logger LOG = LoggerFactory.getLogger(PlanWriter.class);

  private final OfTranslator translator = new OfTranslator();
  private final IOFSwitchService switches;
  private final LongPredicate inTopology;
  private final Set<Long> warnedVersion = ConcurrentHashMap.newKeySet();

  /**
   * @param inTopology the switches mpqoe manages (the descriptor's); a removal for every switch
   *     goes to these only
   */
  PlanWriter(IOFSwitchService switches, LongPredicate inTopology) {
    this.switches = switches;
    this.inTopology = inTopology;
  }

  /** The active switch with this DPID if mpqoe can program it (OpenFlow 1.3), else null. */
  IOFSwitch usable(long dpid) {
    IOFSwitch sw = switches.getActiveSwitch(DatapathId.of(dpid));
    if (sw == null) {
      return null;
    }
    OFVersion v = sw.getOFFactory().getVersion();
    if (v != OFVersion.OF_13) {
      if (warnedVersion.add(dpid)) {
        LOG.warn(
            "switch {} speaks {}, mpqoe's rules are OpenFlow 1.3: left to Floodlight (configure"
                + " the bridge with protocols=OpenFlow13)",
            DatapathId.of(dpid),
            v);
      }
      return null;
    }
    return sw;
  }

  /** Applies a plan; never blocks (the packet-out waits on the barrier futures). */
  void apply(FlowPlan plan) {
    if (plan == null || plan.isEmpty()) {
      return;
    }
    List<Long> managed = new ArrayList<>();
    for (DatapathId d : switches.getAllSwitchDpids()) {
      if (inTopology.test(d.getLong())) {
        managed.add(d.getLong());
      }
    }
    List<ListenableFuture<OFBarrierReply>> barriers = new ArrayList<>();
    for (Map.Entry<Long, List<OFMessage>> e : translator.flowMods(plan, managed).entrySet()) {
      IOFSwitch sw = usable(e.getKey());
      if (sw == null) {
        LOG.warn(
            "switch {} is not connected: {} flow mod(s) not sent",
            DatapathId.of(e.getKey()),
            e.getValue().size());
        continue;
      }
      barriers.add(send(sw, e.getValue()));
    }
    FlowPlan.PacketOut po = plan.packetOut();
    if (po == null) {
      return;
    }
    if (barriers.isEmpty()) {
      packetOut(po);
      return;
    }
    AtomicInteger pending = new AtomicInteger(barriers.size());
    for (ListenableFuture<OFBarrierReply> b : barriers) {
      b.addListener(
          () -> {
            if (pending.decrementAndGet() == 0) {
              packetOut(po);
            }
          },
          Runnable::run);
    }
  }

  /**
   * Installs rules on one switch (a switch that just became active), then {@code more} flow mods
   * (the adapter's own), then a barrier.
   */
  ListenableFuture<OFBarrierReply> install(
      IOFSwitch sw, List<FlowRule> rules, List<? extends OFMessage> more) {
    List<OFMessage> adds = new ArrayList<>(rules.size() + more.size());
    rules.forEach(r -> adds.add(translator.flowAdd(r)));
    adds.addAll(more);
    return send(sw, adds);
  }

  /**
   * Writes the messages, each with a fresh xid, then a barrier whose reply completes the future.
   */
  private static ListenableFuture<OFBarrierReply> send(IOFSwitch sw, List<OFMessage> messages) {
    OFFactory f = sw.getOFFactory();
    List<OFMessage> out = new ArrayList<>(messages.size());
    messages.forEach(m -> out.add(OfTranslator.withXid(m, f.nextXid())));
    Collection<OFMessage> unsent = sw.write(out);
    if (!unsent.isEmpty()) {
      LOG.warn("switch {}: {} message(s) not written (disconnected)", sw.getId(), unsent.size());
    }
    return sw.writeRequest(f.buildBarrierRequest().setXid(f.nextXid()).build());
  }

  private void packetOut(FlowPlan.PacketOut po) {
    IOFSwitch sw = usable(po.dpid());
    if (sw == null) {
      LOG.warn("switch {} is not connected: packet-out dropped", DatapathId.of(po.dpid()));
      return;
    }
    try {
      sw.write(OfTranslator.withXid(translator.packetOut(po), sw.getOFFactory().nextXid()));
    } catch (RuntimeException e) {
      LOG.warn("switch {}: cannot send the packet-out: {}", sw.getId(), e.getMessage());
    }
  }
}
