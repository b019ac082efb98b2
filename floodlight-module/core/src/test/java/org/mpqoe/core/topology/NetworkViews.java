package org.mpqoe.core.topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.mpqoe.core.topology.NetworkView.AttachmentView;
import org.mpqoe.core.topology.NetworkView.LinkView;
import org.mpqoe.core.topology.NetworkView.PortView;
import org.mpqoe.core.topology.NetworkView.SwitchView;

/** Builds the network view a controller would discover on a cabled descriptor topology. */
public final class NetworkViews {
  private NetworkViews() {}

  /**
   * The view of {@code t} cabled exactly as its descriptor says: every link seen in both directions
   * with latency {@code 1 + index} ms, every port at {@code speedKbps}, every host interface seen
   * where the descriptor puts it.
   */
  public static Editable cabled(Topology t, long speedKbps) {
    Editable v = new Editable();
    for (SwitchNode s : t.switches()) {
      v.ports.put(s.dpid(), new TreeMap<>());
    }
    for (Link l : t.links()) {
      v.port(l.a().dpid(), l.portA(), speedKbps);
      v.port(l.b().dpid(), l.portB(), speedKbps);
      v.links.add(new LinkView(l.a().dpid(), l.portA(), l.b().dpid(), l.portB(), 1 + l.index()));
      v.links.add(new LinkView(l.b().dpid(), l.portB(), l.a().dpid(), l.portA(), 1 + l.index()));
    }
    for (Host h : t.hosts()) {
      for (HostInterface f : h.interfaces()) {
        v.port(f.attachment().dpid(), f.port(), speedKbps);
        v.attachments.add(new AttachmentView(f.ip(), f.mac(), f.attachment().dpid(), f.port()));
      }
    }
    return v;
  }

  /** A mutable view for tests to edit before freezing it. */
  public static final class Editable {
    final Map<Long, Map<Integer, PortView>> ports = new HashMap<>();
    final List<LinkView> links = new ArrayList<>();
    final List<AttachmentView> attachments = new ArrayList<>();

    public Editable port(long dpid, int port, long speedKbps) {
      ports
          .computeIfAbsent(dpid, d -> new TreeMap<>())
          .put(port, new PortView(port, speedKbps, true));
      return this;
    }

    /** Both directions of a link between two ports. */
    public Editable link(long a, int pa, long b, int pb, double latencyMs) {
      links.add(new LinkView(a, pa, b, pb, latencyMs));
      links.add(new LinkView(b, pb, a, pa, latencyMs));
      return this;
    }

    /** Removes both directions of every link between the two switches. */
    public Editable unplug(long a, long b) {
      links.removeIf(
          l -> (l.srcDpid() == a && l.dstDpid() == b) || (l.srcDpid() == b && l.dstDpid() == a));
      return this;
    }

    public NetworkView freeze() {
      List<SwitchView> switches = new ArrayList<>();
      ports.forEach((dpid, p) -> switches.add(new SwitchView(dpid, List.copyOf(p.values()))));
      return new NetworkView(switches, links, attachments);
    }
  }
}
