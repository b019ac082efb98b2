package org.mpqoe.floodlight;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongPredicate;
import net.floodlightcontroller.core.IOFSwitch;
import net.floodlightcontroller.core.internal.IOFSwitchService;
import org.mpqoe.ofplan.OfSwitch;
import org.mpqoe.ofplan.OfTranslator;
import org.mpqoe.ofplan.PlanApplier;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Floodlight's switches as {@link PlanApplier} sees them: the active OpenFlow 1.3 switches of the
 * topology. The messages are the shared {@link OfTranslator}'s (OpenFlow 1.3), so a switch gets
 * them only if it negotiated OpenFlow 1.3 with Floodlight; others are left to Floodlight. A barrier
 * completes with Floodlight's reply future, which also completes when the switch disconnects or
 * Floodlight's reply timeout passes. Thread-safe.
 */
final class FloodlightSwitches implements PlanApplier.Switches {
  private static final Logger LOG = LoggerFactory.getLogger(FloodlightSwitches.class);

  private final IOFSwitchService switches;
  private final LongPredicate inTopology;
  private final Set<Long> warnedVersion = ConcurrentHashMap.newKeySet();

  /**
   * @param inTopology the switches mpqoe manages (the descriptor's); a removal for every switch
   *     goes to these only
   */
  FloodlightSwitches(IOFSwitchService switches, LongPredicate inTopology) {
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

  @Override
  public OfSwitch get(long dpid) {
    IOFSwitch sw = usable(dpid);
    return sw == null ? null : of(sw);
  }

  @Override
  public Collection<Long> managed() {
    List<Long> out = new ArrayList<>();
    for (DatapathId d : switches.getAllSwitchDpids()) {
      if (inTopology.test(d.getLong())) {
        out.add(d.getLong());
      }
    }
    return out;
  }

  @Override
  public String name(long dpid) {
    return DatapathId.of(dpid).toString();
  }

  /** A Floodlight switch as an {@link OfSwitch}: fresh xids from its factory. */
  static OfSwitch of(IOFSwitch sw) {
    return new OfSwitch() {
      @Override
      public void send(List<? extends OFMessage> messages) {
        OFFactory f = sw.getOFFactory();
        List<OFMessage> out = new ArrayList<>(messages.size());
        messages.forEach(m -> out.add(OfTranslator.withXid(m, f.nextXid())));
        Collection<OFMessage> unsent = sw.write(out);
        if (!unsent.isEmpty()) {
          LOG.warn(
              "switch {}: {} message(s) not written (disconnected)", sw.getId(), unsent.size());
        }
      }

      @Override
      public void barrier(Runnable done) {
        OFFactory f = sw.getOFFactory();
        sw.writeRequest(f.buildBarrierRequest().setXid(f.nextXid()).build())
            .addListener(done, Runnable::run);
      }
    };
  }
}
