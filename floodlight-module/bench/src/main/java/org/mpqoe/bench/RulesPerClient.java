package org.mpqoe.bench;

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
import org.mpqoe.core.topology.TopologyLoader;

/**
 * Flow rules a client costs, for each algorithm, with per-hop rules and with segment routing: every
 * generated client of CompuServe (10 clients, 3 interfaces, seed 1) opens one MPTCP connection and
 * a join from each further interface; the rules its subflows get are counted. Segment routing's
 * proactive label rules are shared by all clients and reported separately.
 */
public final class RulesPerClient {
  private RulesPerClient() {}

  public static void main(String[] args) {
    String name = args.length > 0 ? args[0] : "compuserve";
    int clients = args.length > 1 ? Integer.parseInt(args[1]) : 10;
    Topology base = TopologyLoader.load(name);
    Topology t =
        TopologyLoader.parse(
            TopologyLoader.write(ScenarioGenerator.withClients(base, clients, 3, 1)), "rules");
    System.out.printf(
        Locale.ROOT,
        "| algorithm | subflows/client | per-hop rules/client | SR rules/client | SR label rules (all switches) |%n");
    System.out.println("|---|---:|---:|---:|---:|");
    for (String algorithm : Selectors.NAMES) {
      double[] perHop = run(t, base, algorithm, false);
      double[] sr = run(t, base, algorithm, true);
      System.out.printf(
          Locale.ROOT,
          "| %s | %.2f | %.1f | %.1f | %d |%n",
          algorithm,
          perHop[1],
          perHop[0],
          sr[0],
          (int) sr[2]);
    }
    System.out.printf(
        Locale.ROOT,
        "%n%s with %d generated clients x 3 interfaces (seed 1); each client opens one connection"
            + " and joins from every further interface.%n",
        name,
        clients);
  }

  /** {rules per client, subflows per client, proactive label rules}. */
  private static double[] run(Topology t, Topology base, String algorithm, boolean sr) {
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
    long rules = 0;
    long subflows = 0;
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
      subflows += syn.plan().installs().isEmpty() ? 0 : 1;
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
      rules += mine.size();
    }
    int n = t.clients().size();
    return new double[] {(double) rules / n, (double) subflows / n, label};
  }
}
