package org.mpqoe.floodlight;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.floodlightcontroller.core.IOFSwitch;
import net.floodlightcontroller.core.internal.IOFSwitchService;
import net.floodlightcontroller.devicemanager.IDevice;
import net.floodlightcontroller.devicemanager.IDeviceListener;
import net.floodlightcontroller.devicemanager.IDeviceService;
import net.floodlightcontroller.devicemanager.SwitchPort;
import net.floodlightcontroller.linkdiscovery.ILinkDiscovery;
import net.floodlightcontroller.linkdiscovery.ILinkDiscoveryService;
import net.floodlightcontroller.linkdiscovery.Link;
import net.floodlightcontroller.linkdiscovery.internal.LinkInfo;
import net.floodlightcontroller.topology.ITopologyService;
import org.mpqoe.core.topology.NetworkView;
import org.mpqoe.core.topology.NetworkView.AttachmentView;
import org.mpqoe.core.topology.NetworkView.LinkView;
import org.mpqoe.core.topology.NetworkView.PortView;
import org.mpqoe.core.topology.NetworkView.SwitchView;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyBuilder;
import org.projectfloodlight.openflow.protocol.OFPortConfig;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortState;
import org.projectfloodlight.openflow.types.IPv4Address;

/**
 * The network as Floodlight sees it, as the core's {@link NetworkView}: switches and their ports
 * from {@link IOFSwitchService} (curr_speed in kbit/s, port and link state), links from {@link
 * ILinkDiscoveryService} (LLDP, direct links only) with their delays from the core's estimator (fed
 * with Floodlight's own probes; NaN while unknown, not Floodlight's {@code Link.getLatency()}:
 * docs/floodlight.md, "Link delays") and host attachment points from {@link IDeviceService}. Reads
 * Floodlight's services and decides nothing; {@link TopologyBuilder} makes the topology.
 */
public final class DiscoveredTopology {
  private final IOFSwitchService switches;
  private final ILinkDiscoveryService links;
  private final IDeviceService devices;
  private final LinkDelays delays;

  /** The delay (ms) of the cable between two ports, either order; NaN while unknown. */
  @FunctionalInterface
  public interface LinkDelays {
    double ms(long srcDpid, int srcPort, long dstDpid, int dstPort);
  }

  /**
   * @param devices the device manager, or null when it is not loaded (then no host is seen: a
   *     descriptor overlay must name the hosts)
   */
  public DiscoveredTopology(
      IOFSwitchService switches,
      ILinkDiscoveryService links,
      IDeviceService devices,
      LinkDelays delays) {
    this.switches = switches;
    this.links = links;
    this.devices = devices;
    this.delays = delays;
  }

  /** What Floodlight knows now. */
  public NetworkView view() {
    List<SwitchView> sw = new ArrayList<>();
    for (Map.Entry<?, IOFSwitch> e : switches.getAllSwitchMap().entrySet()) {
      IOFSwitch s = e.getValue();
      List<PortView> ports = new ArrayList<>();
      for (OFPortDesc p : s.getPorts()) {
        int no = p.getPortNo().getPortNumber();
        if (no > 0) { // reserved ports (LOCAL, CONTROLLER, ...) are negative as int
          ports.add(new PortView(no, speedKbps(p), up(p)));
        }
      }
      sw.add(new SwitchView(s.getId().getLong(), ports));
    }
    List<LinkView> lv = new ArrayList<>();
    for (Map.Entry<Link, LinkInfo> e : links.getLinks().entrySet()) {
      Link l = e.getKey();
      if (links.getLinkType(l, e.getValue()) != ILinkDiscovery.LinkType.DIRECT_LINK) {
        continue;
      }
      long src = l.getSrc().getLong();
      int srcPort = l.getSrcPort().getPortNumber();
      long dst = l.getDst().getLong();
      int dstPort = l.getDstPort().getPortNumber();
      lv.add(new LinkView(src, srcPort, dst, dstPort, delays.ms(src, srcPort, dst, dstPort)));
    }
    return new NetworkView(sw, lv, attachments());
  }

  /** {@link #view()} made into a topology, with the descriptor {@code overlay} when present. */
  public TopologyBuilder.Built build(Optional<Topology> overlay, TopologyBuilder.Options options) {
    return TopologyBuilder.build(view(), overlay, options);
  }

  /**
   * Calls {@code changed} after Floodlight recomputed its topology (links or ports changed) and
   * when a host appears, moves or gets another address: the moments to rebuild.
   */
  public void onChange(ITopologyService topology, Runnable changed) {
    topology.addListener(updates -> changed.run());
    if (devices != null) {
      devices.addListener(new DeviceChanges(changed));
    }
  }

  private List<AttachmentView> attachments() {
    List<AttachmentView> out = new ArrayList<>();
    if (devices == null) {
      return out;
    }
    for (IDevice d : devices.getAllDevices()) {
      SwitchPort[] aps = d.getAttachmentPoints();
      if (aps == null || aps.length == 0) {
        continue;
      }
      SwitchPort ap = aps[0];
      for (IPv4Address ip : d.getIPv4Addresses()) {
        if (!ip.equals(IPv4Address.NONE)) {
          out.add(
              new AttachmentView(
                  ip.toString(),
                  d.getMACAddress().toString(),
                  ap.getNodeId().getLong(),
                  ap.getPortId().getPortNumber()));
        }
      }
    }
    return out;
  }

  /** curr_speed (kbit/s); OpenFlow 1.4+ moved it into port properties, read as unknown (0). */
  private static long speedKbps(OFPortDesc p) {
    try {
      return Math.max(0, p.getCurrSpeed());
    } catch (UnsupportedOperationException e) {
      return 0;
    }
  }

  private static boolean up(OFPortDesc p) {
    return !p.getState().contains(OFPortState.LINK_DOWN)
        && !p.getConfig().contains(OFPortConfig.PORT_DOWN);
  }

  /** Device-manager events that change where hosts are. */
  private record DeviceChanges(Runnable changed) implements IDeviceListener {
    @Override
    public void deviceAdded(IDevice device) {
      changed.run();
    }

    @Override
    public void deviceRemoved(IDevice device) {
      changed.run();
    }

    @Override
    public void deviceMoved(IDevice device) {
      changed.run();
    }

    @Override
    public void deviceIPV4AddrChanged(IDevice device) {
      changed.run();
    }

    @Override
    public void deviceIPV6AddrChanged(IDevice device) {}

    @Override
    public void deviceVlanChanged(IDevice device) {}

    @Override
    public String getName() {
      return "mpqoe-topology";
    }

    @Override
    public boolean isCallbackOrderingPrereq(String type, String name) {
      return false;
    }

    @Override
    public boolean isCallbackOrderingPostreq(String type, String name) {
      return false;
    }
  }
}
