package org.mpqoe.openflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mpqoe.core.control.ControlConfig;
import org.mpqoe.core.control.Cookies;
import org.mpqoe.core.control.DiscoveryConfig;
import org.mpqoe.core.control.MptcpControlPlane;
import org.mpqoe.core.packet.Addresses;
import org.mpqoe.core.topology.DescriptorCheck;
import org.mpqoe.core.topology.Host;
import org.mpqoe.core.topology.HostInterface;
import org.mpqoe.core.topology.Link;
import org.mpqoe.core.topology.NetworkView;
import org.mpqoe.core.topology.NetworkView.LinkView;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyBuilder;
import org.mpqoe.core.topology.TopologyLoader;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.types.OFPort;

/**
 * Link discovery in the standalone controller, against fake switches wired to each other that pass
 * the controller's LLDP probes on: the topology is built from what the probes find, and checked
 * against a descriptor when there is one.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NetworkDiscoveryTest {
  private static final Duration LLDP = Duration.ofMillis(300);
  private static final String SERVER = "10.0.1.1";

  private final BlockingQueue<String> events = new LinkedBlockingQueue<>();
  private MptcpControlPlane plane;
  private StandaloneController controller;
  private FakeNetwork net;

  @AfterEach
  void stop() throws Exception {
    if (net != null) {
      net.close();
    }
    if (controller != null) {
      controller.close();
    }
  }

  private void start(Optional<Topology> descriptor) throws Exception {
    TopologyBuilder.Options options =
        DiscoveryConfig.DEFAULTS.withServers(List.of(SERVER)).topologyOptions(false);
    Topology initial =
        descriptor.orElseGet(
            () ->
                TopologyBuilder.build(new NetworkView(List.of(), List.of(), List.of()), options)
                    .topology());
    plane = new MptcpControlPlane(initial, ControlConfig.defaults().withAlgorithm("pd-delay"));
    controller =
        new StandaloneController(
            plane,
            new StandaloneController.Settings(
                "127.0.0.1", 0, Duration.ofSeconds(60), LLDP, LLDP.multipliedBy(4)),
            descriptor,
            options,
            events::add);
    controller.start();
    net = new FakeNetwork(controller.address());
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(20);
    }
  }

  /**
   * s1, s2 and s3 in a triangle (port 1 and 2 of each); the client's two interfaces on s1 and s2,
   * the server on s3, each on port 3.
   */
  private void triangle() throws Exception {
    net.switchWithPorts(1, 3)
        .switchWithPorts(2, 3)
        .switchWithPorts(3, 3)
        .wire(1, 1, 3, 1)
        .wire(2, 1, 3, 2)
        .wire(1, 2, 2, 2)
        .start();
  }

  @Test
  void withoutADescriptorTheProbesBuildTheTopologyAndAnMptcpSynIsRouted() throws Exception {
    start(Optional.empty());
    triangle();
    await("both directions of three links", () -> controller.discoveredLinks().size() == 6);
    await("three links in the topology", () -> plane.topology().links().size() == 3);
    for (Link l : plane.topology().links()) {
      assertEquals(FakeNetwork.SPEED_KBPS / 1000.0, l.capacityMbps(), "capacity from curr_speed");
    }

    // Hosts appear where their addresses are seen.
    net.packetIn(
        1, 3, StandaloneControllerTest.arpRequest(0x02000000010bL, ip("10.0.1.11"), ip(SERVER)));
    net.packetIn(
        2, 3, StandaloneControllerTest.arpRequest(0x02000000020bL, ip("10.0.2.11"), ip(SERVER)));
    net.packetIn(
        3, 3, StandaloneControllerTest.arpRequest(0x020000000101L, ip(SERVER), ip("10.0.1.11")));
    await("client and server in the topology", () -> plane.topology().hosts().size() == 2);
    Map<String, Host> hosts = new TreeMap<>();
    plane.topology().hosts().forEach(h -> hosts.put(h.role().toString(), h));
    Host client = hosts.get(Host.Role.CLIENT.toString());
    assertEquals(
        List.of("10.0.1.11", "10.0.2.11"),
        client.interfaces().stream().map(HostInterface::ip).toList(),
        "one client with two interfaces (the address plan)");
    assertEquals(3, hosts.get(Host.Role.SERVER.toString()).interfaces().get(0).port());

    net.clear();
    net.packetIn(1, 3, StandaloneControllerTest.capableSyn(ip("10.0.1.11"), ip(SERVER), 40001, 80));
    assertNotNull(nextSubflowRule(1), "a subflow rule at the client's switch");
    assertNotNull(nextSubflowRule(3), "a subflow rule at the server's switch");
    OFPacketOut out;
    do {
      out = (OFPacketOut) net.next(1, OFType.PACKET_OUT);
      assertNotNull(out, "the SYN sent on after the barriers");
    } while (!out.getInPort().equals(OFPort.of(3)));
    awaitEvent("packet-in s1 port 3: MPTCP");
  }

  @Test
  void linkDelaysLeaveTheControlChannelOut() throws Exception {
    // Each switch's echo takes 40 ms and each probe 40 ms of control channel plus a 15 ms cable:
    // the probes alone say 55 ms; the reflected probes (70 ms) take out the 40.
    start(Optional.empty());
    net.switchWithPorts(1, 3)
        .switchWithPorts(2, 3)
        .switchWithPorts(3, 3)
        .wire(1, 1, 3, 1)
        .wire(2, 1, 3, 2)
        .wire(1, 2, 2, 2)
        .delays(40, 15);
    net.start();
    await("three links in the topology", () -> plane.topology().links().size() == 3);
    await(
        "every link's delay measured",
        () -> {
          var state = plane.links().snapshot();
          return state.size() == 3
              && java.util.stream.IntStream.range(0, 3).allMatch(i -> state.delayMs(i) > 0);
        });
    var state = plane.links().snapshot();
    for (Link l : plane.topology().links()) {
      double estimate =
          plane.links().delayEstimate(l.a().dpid(), l.portA(), l.b().dpid(), l.portB());
      System.out.printf(
          "link %s-%s: delay %.2f ms (cable 15 ms, probes 55 ms)%n",
          l.a().name(), l.b().name(), state.delayMs(l.index()));
      assertTrue(estimate >= 5 && estimate <= 25, "delay near the cable's 15 ms, got " + estimate);
      double used = state.delayMs(l.index());
      assertTrue(used >= 5 && used <= 25, "the selectors' delay is the estimate's, got " + used);
    }
    for (LinkView l : controller.discoveredLinks()) {
      assertTrue(l.latencyMs() >= 55, "a probe's own time includes the control channel");
    }
  }

  @Test
  void reflectedProbesCancelWhatEachSwitchAddsAndNoEchoSees() throws Exception {
    // Echo round trips of 10 ms; 15 ms cables; each switch adds its own time to a frame it sends
    // (after a packet-out) and to one it passes up (a datapath miss and upcall): 20 and 5 ms at s1,
    // 0 and 30 at s2, 10 and 10 at s3. The echo subtraction leaves 15 + out(src) + in(dst) in a
    // probe; the reflection takes all of it out.
    start(Optional.empty());
    net.switchWithPorts(1, 3)
        .switchWithPorts(2, 3)
        .switchWithPorts(3, 3)
        .wire(1, 1, 3, 1)
        .wire(2, 1, 3, 2)
        .wire(1, 2, 2, 2)
        .delays(10, 15)
        .processing(1, 20, 5)
        .processing(2, 0, 30)
        .processing(3, 10, 10);
    net.start();
    await("three links in the topology", () -> plane.topology().links().size() == 3);
    await(
        "every link's delay known",
        () ->
            plane.topology().links().stream()
                .allMatch(
                    l ->
                        !Double.isNaN(
                            plane
                                .links()
                                .delayEstimate(l.a().dpid(), l.portA(), l.b().dpid(), l.portB()))));
    Map<Long, int[]> own =
        Map.of(1L, new int[] {20, 5}, 2L, new int[] {0, 30}, 3L, new int[] {10, 10});
    for (Link l : plane.topology().links()) {
      double estimate =
          plane.links().delayEstimate(l.a().dpid(), l.portA(), l.b().dpid(), l.portB());
      int ab = 15 + own.get(l.a().dpid())[0] + own.get(l.b().dpid())[1];
      int ba = 15 + own.get(l.b().dpid())[0] + own.get(l.a().dpid())[1];
      System.out.printf(
          "link %s-%s: reflection %.2f ms, echo subtraction at best %d ms (cable 15 ms)%n",
          l.a().name(), l.b().name(), estimate, Math.min(ab, ba));
      assertTrue(Math.abs(estimate - 15) <= 3, "the cable's 15 ms, got " + estimate);
    }
    // Every reflect probe is reflected once, by the far switch, and none became a link.
    assertTrue(
        net.reflected() >= 6 * org.mpqoe.core.control.LinkDelayEstimator.WINDOW,
        "reflected " + net.reflected());
    assertEquals(6, controller.discoveredLinks().size());
    for (LinkView l : controller.discoveredLinks()) {
      assertTrue(l.srcDpid() != l.dstDpid(), "no link of a switch to itself: " + l);
    }
  }

  @Test
  void aSwitchThatDisconnectsTakesItsLinksAlong() throws Exception {
    start(Optional.empty());
    triangle();
    await("three links in the topology", () -> plane.topology().links().size() == 3);
    net.get(3).close();
    await("one link left", () -> plane.topology().links().size() == 1);
    assertEquals(2, controller.discoveredLinks().size());
    Link left = plane.topology().links().get(0);
    assertEquals(Set.of(1L, 2L), Set.of(left.a().dpid(), left.b().dpid()));
  }

  @Test
  void aNetworkThatMatchesTheDescriptorKeepsItsTopologyAndHasNoMismatch() throws Exception {
    Topology d = TopologyLoader.load("three-path");
    start(Optional.of(d));
    wireAsDescriptor(d, -1);
    int links = 2 * d.links().size();
    await(
        "every descriptor link in both directions",
        () -> controller.discoveredLinks().size() == links);
    // Past the quiet period after the last switch connected: the check has run.
    Thread.sleep(4 * LLDP.toMillis());
    assertSame(d, plane.topology(), "the descriptor's topology was not replaced");
    assertEquals(List.of(), plane.topologyMismatches());
    assertEquals(MptcpControlPlane.Source.DESCRIPTOR_AND_DISCOVERED, plane.source(), "checked");
  }

  @Test
  void aDescriptorLinkThatIsNotThereIsReportedAndNotRoutedOver() throws Exception {
    Topology d = TopologyLoader.load("three-path");
    start(Optional.of(d));
    Link missing = d.links().get(2);
    wireAsDescriptor(d, missing.index());
    await("a mismatch", () -> !plane.topologyMismatches().isEmpty());
    List<DescriptorCheck.Mismatch> m = plane.topologyMismatches();
    assertEquals(1, m.size(), m.toString());
    assertEquals(DescriptorCheck.Kind.MISSING_LINK, m.get(0).kind());
    await("the topology without it", () -> plane.topology().links().size() == d.links().size() - 1);
    for (Link l : plane.topology().links()) {
      assertTrue(
          !Set.of(l.a().name(), l.b().name())
              .equals(Set.of(missing.a().name(), missing.b().name())),
          "no link " + missing);
    }
    awaitEvent("mismatch MISSING_LINK: link p3:1-sv:3");
  }

  /** Wires fake switches as the descriptor says, except the link with index {@code skip}. */
  private void wireAsDescriptor(Topology d, int skip) throws Exception {
    Map<Long, Integer> maxPort = new TreeMap<>();
    for (Link l : d.links()) {
      maxPort.merge(l.a().dpid(), l.portA(), Math::max);
      maxPort.merge(l.b().dpid(), l.portB(), Math::max);
      if (l.index() != skip) {
        net.wire(l.a().dpid(), l.portA(), l.b().dpid(), l.portB());
      }
    }
    for (Host h : d.hosts()) {
      for (HostInterface f : h.interfaces()) {
        maxPort.merge(f.attachment().dpid(), f.port(), Math::max);
      }
    }
    maxPort.forEach(net::switchWithPorts);
    net.start();
  }

  private String awaitEvent(String containing) throws InterruptedException {
    return Events.await(events, containing);
  }

  private static int ip(String text) {
    return Addresses.parseIpv4(text);
  }

  /** The next subflow rule the controller sent to {@code dpid} (other flow mods skipped). */
  private OFFlowAdd nextSubflowRule(long dpid) throws InterruptedException {
    while (true) {
      OFMessage m = net.next(dpid, OFType.FLOW_MOD);
      if (m == null) {
        return null;
      }
      if (m instanceof OFFlowAdd a && Cookies.kind(a.getCookie().getValue()) == Cookies.SUBFLOW) {
        return a;
      }
    }
  }
}
