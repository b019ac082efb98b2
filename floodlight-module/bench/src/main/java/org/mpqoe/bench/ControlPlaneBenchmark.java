package org.mpqoe.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.mpqoe.core.control.ControlConfig;
import org.mpqoe.core.control.FlowRule;
import org.mpqoe.core.control.MptcpControlPlane;
import org.mpqoe.core.control.Reaction;
import org.mpqoe.core.mptcp.Tokens;
import org.mpqoe.core.packet.Addresses;
import org.mpqoe.core.scenario.ScenarioGenerator;
import org.mpqoe.core.topology.Host;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyLoader;
import org.mpqoe.ofplan.OfTranslator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.projectfloodlight.openflow.protocol.OFMessage;

/**
 * Packet-in to flow plan in the shared control plane (parsing, MPTCP classification, selection,
 * rule generation), on CompuServe with ten generated clients. An MP_CAPABLE SYN of a client without
 * an assignment runs the selector (the GA with the paper's population); an MP_JOIN SYN only maps
 * the token and builds rules. Each invocation ends its connection or subflow again (a flow-removed
 * event) so that every SYN meets the same state. With {@code wire=true} the plan is also translated
 * to OpenFlow 1.3 messages ({@link OfTranslator}, shared by both runtimes) and encoded into a
 * buffer, which is everything the runtime does before the socket write.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 2, timeUnit = TimeUnit.SECONDS)
public class ControlPlaneBenchmark {
  @Param({"ga", "exact", "fd-bw"})
  public String algorithm;

  /** Also translate and encode the plan (flow mods and packet-out) as the runtime does. */
  @Param({"false", "true"})
  public boolean wire;

  private final OfTranslator translator = new OfTranslator();
  private final ByteBuf buffer = Unpooled.buffer(1 << 16);
  private List<Long> switches;

  private MptcpControlPlane plane;
  private Host[] clients;
  private int server;
  private int next;
  private int port = 10000;
  private int joinClient;
  private int joinToken;

  @Setup(Level.Trial)
  public void setUp() {
    Topology base = TopologyLoader.load("compuserve");
    Topology t =
        TopologyLoader.parse(
            TopologyLoader.write(ScenarioGenerator.withClients(base, 10, 3, 1)), "bench");
    ControlConfig c =
        ControlConfig.defaults().withAlgorithm(algorithm).withGa(JoinInstances.paperGa(base));
    plane = new MptcpControlPlane(t, c);
    clients = t.clients().toArray(Host[]::new);
    switches = t.switches().stream().map(sw -> sw.dpid()).toList();
    server = Addresses.parseIpv4(t.servers().get(0).interfaces().get(0).ip());
    // One long-lived connection whose token the joins carry.
    Host h = clients[0];
    int ip = Addresses.parseIpv4(h.interfaces().get(0).ip());
    plane.packetIn(h.firstHop().dpid(), 1, HandshakeFrames.capableSyn(ip, server, 5000, 80));
    plane.packetIn(
        t.servers().get(0).firstHop().dpid(),
        1,
        HandshakeFrames.capableSynAck(server, ip, 80, 5000, 42L));
    joinClient = 0;
    joinToken = Tokens.token(42L, 1);
  }

  @Benchmark
  public Reaction capableSyn() {
    Host h = clients[1 + next];
    next = (next + 1) % (clients.length - 1);
    int ip = Addresses.parseIpv4(h.interfaces().get(0).ip());
    Reaction r =
        plane.packetIn(h.firstHop().dpid(), 1, HandshakeFrames.capableSyn(ip, server, port++, 80));
    encode(r);
    end(r);
    return r;
  }

  @Benchmark
  public Reaction joinSyn() {
    Host h = clients[joinClient];
    int ip = Addresses.parseIpv4(h.interfaces().get(1).ip());
    Reaction r =
        plane.packetIn(
            h.firstHop().dpid(), 2, HandshakeFrames.joinSyn(ip, server, port++, 80, joinToken));
    encode(r);
    end(r);
    return r;
  }

  private void encode(Reaction r) {
    if (!wire) {
      return;
    }
    buffer.clear();
    for (List<OFMessage> mods : translator.flowMods(r.plan(), switches).values()) {
      for (OFMessage m : mods) {
        m.writeTo(buffer);
      }
    }
    if (r.plan().packetOut() != null) {
      translator.packetOut(r.plan().packetOut()).writeTo(buffer);
    }
  }

  private void end(Reaction r) {
    if (port > 60000) {
      port = 10000;
    }
    if (!r.plan().installs().isEmpty()) {
      FlowRule first = r.plan().installs().get(0);
      plane.flowRemoved(first.dpid(), first.cookie(), true);
    }
  }
}
