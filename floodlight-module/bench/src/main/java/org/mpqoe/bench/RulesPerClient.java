package org.mpqoe.bench;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.mpqoe.core.control.ControlConfig;
import org.mpqoe.core.control.FlowRule;
import org.mpqoe.core.control.MptcpControlPlane;
import org.mpqoe.core.control.Reaction;
import org.mpqoe.core.mptcp.Tokens;
import org.mpqoe.core.packet.Addresses;
import org.mpqoe.core.scenario.ScenarioGenerator;
import org.mpqoe.core.select.Selectors;
import org.mpqoe.core.topology.Host;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyException;
import org.mpqoe.core.topology.TopologyLoader;

/**
 * Flow rules a client costs, for each algorithm, with per-hop rules and with segment routing: every
 * generated client of CompuServe (10 clients, 3 interfaces, seed 1) opens one MPTCP connection and
 * a join from each further interface; the rules its subflows get are counted. Segment routing's
 * proactive label rules are shared by all clients and reported separately.
 *
 * <p>Prints CSV, one row per algorithm, routing ({@code hop}: rules per hop; {@code sr}: segment
 * routing) and client; floodlight-module/bench/perf_report.py averages it (docs/perf.md).
 *
 * <p>Usage: {@code java -cp benchmarks.jar org.mpqoe.bench.RulesPerClient [topology] [clients]}
 */
public final class RulesPerClient {
  static final String USAGE = "RulesPerClient [topology] [clients]";

  private RulesPerClient() {}

  public static void main(String[] args) {
    try {
      String name = args.length > 0 ? args[0] : "compuserve";
      int clients = args.length > 1 ? BenchArgs.positive(args[1], "clients") : 10;
      print(TopologyLoader.load(name), clients);
    } catch (IllegalArgumentException | TopologyException e) {
      BenchArgs.fail(USAGE, e);
    }
  }

  private static void print(Topology base, int clients) {
    Topology t =
        TopologyLoader.parse(
            TopologyLoader.write(ScenarioGenerator.withClients(base, clients, 3, 1)), "rules");
    StringBuilder out = new StringBuilder("algorithm,routing,client,subflows,rules,label_rules\n");
    for (String algorithm : Selectors.NAMES) {
      for (boolean sr : new boolean[] {false, true}) {
        for (Client c : run(t, base, algorithm, sr)) {
          out.append(
              String.format(
                  Locale.ROOT,
                  "%s,%s,%s,%d,%d,%d%n",
                  algorithm,
                  sr ? "sr" : "hop",
                  c.name(),
                  c.subflows(),
                  c.rules(),
                  c.labelRules()));
        }
      }
    }
    System.out.print(out);
  }

  /** One client's subflows with rules and the rules they got; the shared label rules beside. */
  record Client(String name, int subflows, int rules, int labelRules) {}

  /** Every client's subflows and rules; labelRules: the proactive label rules of all switches. */
  private static List<Client> run(Topology t, Topology base, String algorithm, boolean sr) {
    ControlConfig c =
        ControlConfig.defaults()
            .withAlgorithm(algorithm)
            .withGa(JoinInstances.paperGa(base))
            .withRouting(8, sr);
    MptcpControlPlane plane = new MptcpControlPlane(t, c);
    int label = 0;
    for (var s : t.switches()) {
      label += (int) plane.switchConnected(s.dpid()).stream().filter(r -> r.table() == 1).count();
    }
    Host server = t.servers().get(0);
    int srv = Addresses.parseIpv4(server.interfaces().get(0).ip());
    List<Client> out = new ArrayList<>();
    int port = 20000;
    long key = 1;
    for (Host h : t.clients()) {
      Set<FlowRule> mine = new HashSet<>();
      int ip0 = Addresses.parseIpv4(h.interfaces().get(0).ip());
      Reaction syn =
          plane.packetIn(h.firstHop().dpid(), 1, HandshakeFrames.capableSyn(ip0, srv, port, 80));
      mine.addAll(syn.plan().installs());
      plane.packetIn(
          server.firstHop().dpid(), 1, HandshakeFrames.capableSynAck(srv, ip0, 80, port, key));
      int token = Tokens.token(key++, 1);
      port++;
      int subflows = syn.plan().installs().isEmpty() ? 0 : 1;
      List<Integer> extra = List.of(1, 2);
      for (int i : extra) {
        if (i >= h.interfaces().size()) {
          continue;
        }
        int ip = Addresses.parseIpv4(h.interfaces().get(i).ip());
        Reaction j =
            plane.packetIn(
                h.firstHop().dpid(), 1 + i, HandshakeFrames.joinSyn(ip, srv, port++, 80, token));
        mine.addAll(j.plan().installs());
        subflows += j.plan().installs().isEmpty() ? 0 : 1;
      }
      out.add(new Client(h.name(), subflows, mine.size(), label));
    }
    return out;
  }
}
