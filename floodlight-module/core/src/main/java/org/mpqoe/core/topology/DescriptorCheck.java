package org.mpqoe.core.topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mpqoe.core.topology.NetworkView.AttachmentView;
import org.mpqoe.core.topology.NetworkView.DuplexLink;
import org.mpqoe.core.topology.NetworkView.LinkView;

/**
 * Compares a descriptor's topology with the network a controller discovered: which descriptor links
 * were found (and on which ports), which were not, and what was found that the descriptor does not
 * have. {@link TopologyBuilder} routes only over found links; the mismatches are what the REST
 * topology and the log report.
 *
 * <p>A descriptor link matches a discovered duplex link between the same two switches: first on the
 * ports the descriptor's port rule gives, then, for the links left, in port order (the cable is
 * there, only numbered differently: {@link Kind#PORTS_DIFFER}).
 */
public final class DescriptorCheck {
  private DescriptorCheck() {}

  /** What kind of difference. */
  public enum Kind {
    /** A descriptor switch is not connected. */
    MISSING_SWITCH,
    /** A connected switch is not in the descriptor. */
    EXTRA_SWITCH,
    /** A descriptor link was not discovered: nothing is routed over it. */
    MISSING_LINK,
    /** A discovered link is not in the descriptor. */
    EXTRA_LINK,
    /** A descriptor link was discovered on other ports than the descriptor's port rule gives. */
    PORTS_DIFFER,
    /** LLDP saw only one direction of a link (or one of its ports is down): not usable. */
    ONE_WAY_LINK,
    /** A descriptor host address was seen behind another switch port than the descriptor's. */
    HOST_ELSEWHERE
  }

  /** One difference, with a message naming switches, ports or addresses. */
  public record Mismatch(Kind kind, String message) {
    @Override
    public String toString() {
      return kind + ": " + message;
    }
  }

  /**
   * The comparison.
   *
   * @param found descriptor link index -> the discovered link that is its cable
   * @param extra discovered duplex links no descriptor link matched
   * @param mismatches every difference, switches first, then links, then hosts
   */
  public record Result(
      Map<Integer, DuplexLink> found, List<DuplexLink> extra, List<Mismatch> mismatches) {
    public Result {
      found = Map.copyOf(found);
      extra = List.copyOf(extra);
      mismatches = List.copyOf(mismatches);
    }

    /** True when the network is the descriptor's, port for port. */
    public boolean matches() {
      return mismatches.isEmpty();
    }
  }

  /** Compares {@code descriptor} (a topology read from a descriptor) with {@code view}. */
  public static Result check(Topology descriptor, NetworkView view) {
    List<Mismatch> out = new ArrayList<>();
    Set<Long> known = new LinkedHashSet<>();
    for (SwitchNode s : descriptor.switches()) {
      known.add(s.dpid());
      if (view.switchView(s.dpid()).isEmpty()) {
        out.add(
            new Mismatch(
                Kind.MISSING_SWITCH,
                String.format("switch %s (dpid %016x) is not connected", s.name(), s.dpid())));
      }
    }
    for (var s : view.switches()) {
      if (!known.contains(s.dpid())) {
        out.add(
            new Mismatch(
                Kind.EXTRA_SWITCH,
                String.format(
                    "switch %016x is connected but not in %s", s.dpid(), descriptor.name())));
      }
    }

    List<DuplexLink> free = new ArrayList<>(view.duplexLinks());
    Map<Integer, DuplexLink> found = new HashMap<>();
    for (Link l : descriptor.links()) {
      DuplexLink exact = null;
      for (DuplexLink d : free) {
        if (samePorts(l, d)) {
          exact = d;
          break;
        }
      }
      if (exact != null) {
        free.remove(exact);
        found.put(l.index(), exact);
      }
    }
    List<Mismatch> linkMismatches = new ArrayList<>();
    for (Link l : descriptor.links()) {
      if (found.containsKey(l.index())) {
        continue;
      }
      DuplexLink other = null;
      for (DuplexLink d : free) {
        if (d.joins(l.a().dpid(), l.b().dpid())) {
          other = d;
          break;
        }
      }
      if (other == null) {
        linkMismatches.add(
            new Mismatch(
                Kind.MISSING_LINK,
                "link " + describe(l) + " was not discovered; nothing is routed over it"));
      } else {
        free.remove(other);
        found.put(l.index(), other);
        linkMismatches.add(
            new Mismatch(
                Kind.PORTS_DIFFER,
                String.format(
                    "link %s is on ports %s:%d-%s:%d, not %d-%d",
                    l,
                    l.a().name(),
                    other.portOn(l.a().dpid()),
                    l.b().name(),
                    portOnOtherEnd(other, l),
                    l.portA(),
                    l.portB())));
      }
    }
    out.addAll(linkMismatches);
    for (DuplexLink d : free) {
      out.add(new Mismatch(Kind.EXTRA_LINK, "link " + d + " is not in " + descriptor.name()));
    }
    for (LinkView l : view.oneWayLinks()) {
      out.add(
          new Mismatch(
              Kind.ONE_WAY_LINK,
              "link "
                  + NetworkView.describe(l.srcDpid(), l.srcPort(), l.dstDpid(), l.dstPort())
                  + " was seen in one direction only or has a port down; not used"));
    }

    Map<String, AttachmentView> seen = new HashMap<>();
    view.attachments().forEach(a -> seen.put(a.ip(), a));
    for (Host h : descriptor.hosts()) {
      for (HostInterface f : h.interfaces()) {
        AttachmentView a = seen.get(f.ip());
        if (a != null && (a.dpid() != f.attachment().dpid() || a.port() != f.port())) {
          out.add(
              new Mismatch(
                  Kind.HOST_ELSEWHERE,
                  String.format(
                      "%s (%s) was seen at %016x:%d, not at %s:%d",
                      f.ip(), h.name(), a.dpid(), a.port(), f.attachment().name(), f.port())));
        }
      }
    }
    return new Result(found, free, out);
  }

  private static boolean samePorts(Link l, DuplexLink d) {
    long a = l.a().dpid();
    long b = l.b().dpid();
    return (d.dpidA() == a && d.portA() == l.portA() && d.dpidB() == b && d.portB() == l.portB())
        || (d.dpidA() == b && d.portA() == l.portB() && d.dpidB() == a && d.portB() == l.portA());
  }

  /** The port of {@code d} on the descriptor link's b end (both ends may be one switch). */
  static int portOnOtherEnd(DuplexLink d, Link l) {
    return d.dpidA() == l.a().dpid() ? d.portB() : d.portA();
  }

  private static String describe(Link l) {
    return String.format("%s:%d-%s:%d", l.a().name(), l.portA(), l.b().name(), l.portB());
  }
}
