package org.mpqoe.floodlight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
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
import net.floodlightcontroller.topology.ITopologyListener;
import net.floodlightcontroller.topology.ITopologyService;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.control.DiscoveryConfig;
import org.mpqoe.core.topology.DescriptorCheck;
import org.mpqoe.core.topology.NetworkView;
import org.mpqoe.core.topology.NetworkView.AttachmentView;
import org.mpqoe.core.topology.NetworkView.LinkView;
import org.mpqoe.core.topology.NetworkView.PortView;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyBuilder;
import org.mpqoe.core.topology.TopologyLoader;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFPortConfig;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortState;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U64;

/** A sticky-paper three-path network as Floodlight's services would report it. */
class DiscoveredTopologyTest {
  private static final OFFactory OF13 = OFFactories.getFactory(OFVersion.OF_13);

  private final Map<DatapathId, IOFSwitch> switches = new LinkedHashMap<>();
  private final Map<Link, LinkInfo> links = new HashMap<>();
  private final Map<Link, ILinkDiscovery.LinkType> types = new HashMap<>();
  private final List<IDevice> devices = new ArrayList<>();
  private final List<ITopologyListener> topologyListeners = new ArrayList<>();
  private final List<IDeviceListener> deviceListeners = new ArrayList<>();

  private static OFPortDesc port(int no, long speedKbps, boolean up) {
    return OF13.buildPortDesc()
        .setPortNo(OFPort.of(no))
        .setHwAddr(MacAddress.of(no))
        .setName("eth" + no)
        .setCurrSpeed(speedKbps)
        .setState(up ? Set.of() : Set.of(OFPortState.LINK_DOWN))
        .setConfig(Set.of())
        .build();
  }

  private void sw(long dpid, OFPortDesc... ports) {
    List<OFPortDesc> all = new ArrayList<>(List.of(ports));
    all.add(
        OF13.buildPortDesc()
            .setPortNo(OFPort.LOCAL)
            .setName("br")
            .setConfig(Set.of(OFPortConfig.NO_FWD))
            .build());
    switches.put(
        DatapathId.of(dpid),
        Fakes.proxy(
            IOFSwitch.class, Map.of("getId", a -> DatapathId.of(dpid), "getPorts", a -> all)));
  }

  private void link(long a, int pa, long b, int pb, long latencyMs, ILinkDiscovery.LinkType type) {
    for (Link l :
        List.of(
            new Link(
                DatapathId.of(a),
                OFPort.of(pa),
                DatapathId.of(b),
                OFPort.of(pb),
                U64.of(latencyMs)),
            new Link(
                DatapathId.of(b),
                OFPort.of(pb),
                DatapathId.of(a),
                OFPort.of(pa),
                U64.of(latencyMs)))) {
      links.put(l, new LinkInfo(new Date(), new Date(), null));
      types.put(l, type);
    }
  }

  private void host(String mac, long dpid, int port, String... ips) {
    IPv4Address[] addresses = new IPv4Address[ips.length];
    for (int i = 0; i < ips.length; i++) {
      addresses[i] = IPv4Address.of(ips[i]);
    }
    SwitchPort[] aps =
        dpid == 0
            ? new SwitchPort[0]
            : new SwitchPort[] {new SwitchPort(DatapathId.of(dpid), OFPort.of(port))};
    devices.add(
        Fakes.proxy(
            IDevice.class,
            Map.of(
                "getMACAddress", a -> MacAddress.of(mac),
                "getIPv4Addresses", a -> addresses,
                "getAttachmentPoints", a -> aps)));
  }

  private DiscoveredTopology discovered() {
    IOFSwitchService sws =
        Fakes.proxy(IOFSwitchService.class, Map.of("getAllSwitchMap", a -> switches));
    ILinkDiscoveryService lds =
        Fakes.proxy(
            ILinkDiscoveryService.class,
            Map.of("getLinks", a -> links, "getLinkType", a -> types.get((Link) a[0])));
    IDeviceService ds =
        Fakes.proxy(
            IDeviceService.class,
            Map.of(
                "getAllDevices", a -> devices,
                "addListener", a -> deviceListeners.add((IDeviceListener) a[0])));
    // The estimator's delays: here the latency each link was given, by its ends in either order.
    return new DiscoveredTopology(
        sws,
        lds,
        ds,
        (sd, sp, dd, dp) ->
            links.keySet().stream()
                .filter(
                    l ->
                        l.getSrc().getLong() == sd
                            && l.getSrcPort().getPortNumber() == sp
                            && l.getDst().getLong() == dd
                            && l.getDstPort().getPortNumber() == dp)
                .mapToDouble(l -> l.getLatency().getValue())
                .findFirst()
                .orElse(Double.NaN));
  }

  /** three-path (p1..p3 = dpids 1-3, sv = 4), cabled as its descriptor says, 10 Mbit/s ports. */
  private void threePath() {
    sw(1, port(1, 10_000, true), port(2, 10_000, true));
    sw(2, port(1, 10_000, true), port(2, 10_000, true));
    sw(3, port(1, 10_000, true), port(2, 10_000, true));
    sw(
        4,
        port(1, 10_000, true),
        port(2, 10_000, true),
        port(3, 10_000, true),
        port(4, 10_000, true));
    link(1, 1, 4, 1, 25, ILinkDiscovery.LinkType.DIRECT_LINK);
    link(2, 1, 4, 2, 50, ILinkDiscovery.LinkType.DIRECT_LINK);
    link(3, 1, 4, 3, 50, ILinkDiscovery.LinkType.DIRECT_LINK);
    host("02:00:00:00:01:01", 4, 4, "10.0.1.1");
    host("02:00:00:00:01:0b", 1, 2, "10.0.1.11");
    host("02:00:00:00:02:0b", 2, 2, "10.0.2.11");
    host("02:00:00:00:03:0b", 3, 2, "10.0.3.11");
  }

  @Test
  void theViewIsWhatFloodlightsServicesReport() {
    sw(1, port(1, 10_000, true), port(2, 1_000_000, false));
    sw(2, port(1, 10_000, true));
    link(1, 1, 2, 1, 7, ILinkDiscovery.LinkType.DIRECT_LINK);
    link(1, 2, 2, 1, 9, ILinkDiscovery.LinkType.MULTIHOP_LINK);
    host("02:00:00:00:01:0b", 1, 3, "10.0.1.11", "0.0.0.0");
    host("02:00:00:00:02:0b", 0, 0, "10.0.2.11");

    NetworkView v = discovered().view();
    assertEquals(
        List.of(new PortView(1, 10_000, true), new PortView(2, 1_000_000, false)),
        v.switchView(1).orElseThrow().ports(),
        "LOCAL is not a port of the network");
    assertEquals(
        Set.of(new LinkView(1, 1, 2, 1, 7), new LinkView(2, 1, 1, 1, 7)),
        Set.copyOf(v.links()),
        "only direct links");
    assertEquals(
        List.of(new AttachmentView("10.0.1.11", "02:00:00:00:01:0b", 1, 3)),
        v.attachments(),
        "addresses with an attachment point only");
  }

  @Test
  void withoutADescriptorTheModuleRoutesOnWhatFloodlightDiscovered() {
    threePath();
    Topology t =
        discovered()
            .build(
                Optional.empty(),
                DiscoveryConfig.DEFAULTS.withServers(List.of("10.0.1.1")).topologyOptions(false))
            .topology();
    assertEquals(3, t.links().size());
    assertEquals(List.of(25.0, 50.0, 50.0), t.links().stream().map(l -> l.delayMs()).toList());
    assertEquals(List.of(10.0, 10.0, 10.0), t.links().stream().map(l -> l.capacityMbps()).toList());
    assertEquals(3, t.clients().get(0).interfaces().size());
    assertEquals("10.0.1.1", t.servers().get(0).interfaces().get(0).ip());
  }

  @Test
  void aDescriptorIsCheckedAgainstWhatFloodlightDiscovered() {
    threePath();
    links.keySet().removeIf(l -> l.getSrc().getLong() == 3 || l.getDst().getLong() == 3);
    Topology descriptor = TopologyLoader.load("three-path");
    TopologyBuilder.Built b =
        discovered().build(Optional.of(descriptor), DiscoveryConfig.DEFAULTS.topologyOptions(true));
    assertEquals(
        List.of(DescriptorCheck.Kind.MISSING_LINK),
        b.mismatches().stream().map(DescriptorCheck.Mismatch::kind).toList());
    assertEquals(
        List.of("p1-sv", "p2-sv"), b.topology().links().stream().map(Object::toString).toList());
  }

  @Test
  void topologyAndDeviceEventsAskForARebuild() {
    AtomicInteger rebuilds = new AtomicInteger();
    ITopologyService ts =
        Fakes.proxy(
            ITopologyService.class,
            Map.of("addListener", a -> topologyListeners.add((ITopologyListener) a[0])));
    discovered().onChange(ts, rebuilds::incrementAndGet);
    topologyListeners.forEach(l -> l.topologyChanged(List.of()));
    deviceListeners.forEach(l -> l.deviceMoved(null));
    deviceListeners.forEach(l -> l.deviceVlanChanged(null));
    assertEquals(2, rebuilds.get());
    assertTrue(deviceListeners.get(0).getName().startsWith("mpqoe"));
  }
}
