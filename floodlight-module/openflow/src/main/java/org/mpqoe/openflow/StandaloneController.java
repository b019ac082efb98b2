package org.mpqoe.openflow;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.mpqoe.core.control.ControlConfig;
import org.mpqoe.core.control.DiscoveryConfig;
import org.mpqoe.core.control.FlowPlan;
import org.mpqoe.core.control.LldpProbes;
import org.mpqoe.core.control.MptcpControlPlane;
import org.mpqoe.core.topology.NetworkView;
import org.mpqoe.core.topology.SwitchNode;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyBuilder;
import org.mpqoe.ofplan.OfSwitch;
import org.mpqoe.ofplan.OfTranslator;
import org.mpqoe.ofplan.PlanApplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The standalone OpenFlow 1.3 controller: a Netty server that switches (Open vSwitch, Mininet)
 * connect to, translating their events into calls of {@link MptcpControlPlane} and its plans into
 * flow mods, barriers and packet-outs. One event loop group serves the listening socket and every
 * switch connection; the control plane is thread-safe and is called from whichever loop thread owns
 * the connection.
 */
public final class StandaloneController implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StandaloneController.class);

  /**
   * Where to listen, how often to poll port statistics and to probe for links.
   *
   * @param bindAddress address of the OpenFlow listener (Mininet connects to 127.0.0.1)
   * @param port TCP port, 0 for an ephemeral one (see {@link #address()})
   * @param statsInterval port statistics period
   * @param lldpInterval LLDP probe period
   * @param linkTimeout how long a discovered link lives without being seen again (longer than
   *     {@code lldpInterval}: {@link DiscoveryConfig#checkLldp})
   */
  public record Settings(
      String bindAddress,
      int port,
      Duration statsInterval,
      Duration lldpInterval,
      Duration linkTimeout) {
    /** Probes and link timeout as in {@link DiscoveryConfig#DEFAULTS}. */
    public Settings(String bindAddress, int port, Duration statsInterval) {
      this(
          bindAddress,
          port,
          statsInterval,
          DiscoveryConfig.DEFAULTS.lldpInterval(),
          DiscoveryConfig.DEFAULTS.linkTimeout());
    }

    /** The listener, with statistics period, probe period and link timeout from {@code config}. */
    public static Settings of(String bindAddress, int port, ControlConfig config) {
      return new Settings(
          bindAddress,
          port,
          Duration.ofSeconds(config.statsIntervalS()),
          config.discovery().lldpInterval(),
          config.discovery().linkTimeout());
    }

    public Settings {
      Objects.requireNonNull(bindAddress, "bindAddress");
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("OpenFlow port must be 0..65535, got " + port);
      }
      if (statsInterval.isNegative() || statsInterval.isZero()) {
        throw new IllegalArgumentException("statistics interval must be positive");
      }
      DiscoveryConfig.checkLldp(lldpInterval, linkTimeout);
    }
  }

  private final MptcpControlPlane plane;
  private final Settings settings;
  private final Consumer<String> events;
  private final Map<Long, SwitchConnection> switches = new ConcurrentHashMap<>();
  private final PlanApplier applier =
      new PlanApplier(
          new OfTranslator(),
          new PlanApplier.Switches() {
            @Override
            public OfSwitch get(long dpid) {
              return switches.get(dpid);
            }

            @Override
            public Collection<Long> managed() {
              return switches.keySet();
            }

            @Override
            public String name(long dpid) {
              return StandaloneController.this.name(dpid);
            }
          });
  private final NetworkDiscovery discovery;
  private EventLoopGroup group;
  private Channel server;

  /**
   * A controller for a network described by a descriptor: {@code plane}'s topology is the overlay
   * that discovery is checked against.
   *
   * @param events receives one human-readable line per event (connections, switches, packet-in
   *     decisions, port changes, links); called from loop threads
   */
  public StandaloneController(MptcpControlPlane plane, Settings settings, Consumer<String> events) {
    this(
        plane,
        settings,
        Optional.of(plane.topology()),
        DiscoveryConfig.DEFAULTS.topologyOptions(true),
        events);
  }

  /**
   * @param overlay the descriptor's topology; empty to route on the discovered network alone
   * @param options how a topology is built from the discovered network (names, servers, hosts):
   *     {@link DiscoveryConfig#topologyOptions}
   * @param events receives one human-readable line per event (connections, switches, packet-in
   *     decisions, port changes, links); called from loop threads
   */
  public StandaloneController(
      MptcpControlPlane plane,
      Settings settings,
      Optional<Topology> overlay,
      TopologyBuilder.Options options,
      Consumer<String> events) {
    this.plane = Objects.requireNonNull(plane);
    this.settings = Objects.requireNonNull(settings);
    this.events = Objects.requireNonNull(events);
    this.discovery =
        new NetworkDiscovery(
            this,
            new NetworkDiscovery.Settings(
                settings.lldpInterval(), settings.linkTimeout(), overlay, options));
  }

  /** Binds the listener; returns the bound address. */
  public synchronized InetSocketAddress start() throws InterruptedException {
    if (server != null) {
      throw new IllegalStateException("already started");
    }
    group = new NioEventLoopGroup();
    try {
      server =
          new ServerBootstrap()
              .group(group)
              .channel(NioServerSocketChannel.class)
              .option(ChannelOption.SO_REUSEADDR, true)
              .childOption(ChannelOption.TCP_NODELAY, true)
              .childHandler(
                  new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                      OfCodec.install(ch.pipeline());
                      ch.pipeline()
                          .addLast("mpqoe", new SwitchConnection(StandaloneController.this));
                    }
                  })
              .bind(settings.bindAddress(), settings.port())
              .sync()
              .channel();
    } catch (RuntimeException | InterruptedException e) {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      group = null;
      throw e;
    }
    return address();
  }

  /** The listening address (after {@link #start()}). */
  public InetSocketAddress address() {
    return (InetSocketAddress) server.localAddress();
  }

  /** DPIDs of the switches that finished the handshake and are in the topology. */
  public Set<Long> connectedSwitches() {
    return new TreeSet<>(switches.keySet());
  }

  @Override
  public synchronized void close() {
    if (server != null) {
      server.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
      server = null;
    }
    for (SwitchConnection c : switches.values()) {
      c.channel().close();
    }
    discovery.close();
    if (group != null) {
      group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
      group = null;
    }
  }

  MptcpControlPlane plane() {
    return plane;
  }

  Settings settings() {
    return settings;
  }

  OfTranslator translator() {
    return applier.translator();
  }

  void event(String line) {
    try {
      events.accept(line);
    } catch (RuntimeException e) {
      LOG.warn("event listener failed on '{}'", line, e);
    }
  }

  /** "p1" for a switch of the topology, else the dpid in hex. */
  String name(long dpid) {
    return plane.topology().switchWithDpid(dpid).map(SwitchNode::name).orElse(hex(dpid));
  }

  static String hex(long dpid) {
    return String.format("%016x", dpid);
  }

  void register(long dpid, SwitchConnection c) {
    SwitchConnection old = switches.put(dpid, c);
    if (old != null && old != c) {
      LOG.warn("switch {} connected again; closing its previous connection", name(dpid));
      old.channel().close();
    }
  }

  void unregister(long dpid, SwitchConnection c) {
    if (switches.remove(dpid, c)) {
      discovery.switchGone(dpid);
    }
  }

  NetworkDiscovery discovery() {
    return discovery;
  }

  /** The directed links discovered by LLDP now. */
  public List<NetworkView.LinkView> discoveredLinks() {
    return discovery.links();
  }

  /** Sends an LLDP probe out of a port of a connected switch (nothing when it is not). */
  void sendProbe(long dpid, int port) {
    sendProbe(LldpProbes.Kind.ONE_WAY, dpid, port);
  }

  /** Sends an LLDP probe of {@code kind} out of a port of a connected switch. */
  void sendProbe(LldpProbes.Kind kind, long dpid, int port) {
    sendPacketOut(LldpProbes.probe(kind, dpid, port, System.nanoTime()));
  }

  /** Sends a packet-out that waits for no rule (nothing when its switch is not connected). */
  void sendPacketOut(FlowPlan.PacketOut out) {
    SwitchConnection c = switches.get(out.dpid());
    if (c != null && c.channel().isActive()) {
      c.send(List.of(translator().packetOut(out)));
    }
  }

  /** Applies a plan through the shared applier (barriers before the packet-out). */
  void apply(FlowPlan plan) {
    applier.apply(plan);
  }

  /** The same; {@code done} gets the timings once the packet-out went out. */
  void apply(FlowPlan plan, Consumer<PlanApplier.Applied> done) {
    applier.apply(plan, done);
  }

  PlanApplier applier() {
    return applier;
  }
}
