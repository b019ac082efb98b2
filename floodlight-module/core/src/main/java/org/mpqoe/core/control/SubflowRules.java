package org.mpqoe.core.control;

import java.util.ArrayList;
import java.util.List;
import org.mpqoe.core.path.CandidatePaths;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.topology.HostInterface;
import org.mpqoe.core.topology.SwitchNode;
import org.mpqoe.core.topology.Topology;

/**
 * The rules that carry one subflow over one path in both directions: per-hop rules on every switch
 * of the path, or, with segment routing, one ingress rule per direction that pushes the label stack
 * (the label rules are proactive). Rules are listed farthest switch first for the client's
 * direction, so that the handshake packet never overtakes its rules.
 *
 * <p>To learn the server's key, the server edge can also <em>copy</em> the server's SYN/ACK to the
 * controller: one more rule there, one priority above the subflow's, matches only segments of the
 * server-to-client direction with SYN and ACK set and both forwards them and sends them to the
 * controller. The SYN/ACK goes on at once (no round trip through the controller), and nothing but
 * SYN/ACKs is ever copied: data segments carry no SYN. (A copy rule on the whole 5-tuple copied a
 * routed subflow's data until its modification reached the datapath; a trap that held the SYN/ACK
 * back cost a packet-in, a modification, a barrier and a packet-out per connection, and userspace
 * Open vSwitch kept sending the server's next segments to the controller from its datapath cache.)
 * The copy rule asks for no removal notice: it goes idle right after the handshake, and its expiry
 * must not end the subflow.
 */
public final class SubflowRules {
  private final Topology topology;
  private final SegmentRouting segmentRouting;

  public SubflowRules(Topology topology, SegmentRouting segmentRouting) {
    this.topology = topology;
    this.segmentRouting = segmentRouting;
  }

  /**
   * @param toServer the client-to-server direction of the subflow
   * @param client the client's interface that sends it
   * @param server the server's interface it is sent to
   * @param path from the client's first-hop switch to the server's
   * @param copyServerSynAck the server edge also copies the server's SYN/ACK to the controller (to
   *     read the server's key)
   */
  public List<FlowRule> build(
      FlowMatch.Subflow toServer,
      HostInterface client,
      HostInterface server,
      Path path,
      ControlConfig config,
      long cookie,
      boolean copyServerSynAck) {
    List<SwitchNode> nodes = path.switchNodes(topology);
    int[] links = path.links();
    List<FlowRule> rules = new ArrayList<>();
    FlowMatch.Subflow toClient = toServer.reversed();
    if (config.segmentRouting() && links.length > 0) {
      Path back = reverse(path);
      SwitchNode serverEdge = nodes.get(nodes.size() - 1);
      SwitchNode clientEdge = nodes.get(0);
      List<FlowAction> backActions = pushAndGo(segmentRouting.labels(back));
      rules.add(rule(serverEdge, toClient, backActions, config, cookie));
      if (copyServerSynAck) {
        rules.add(synAckCopy(serverEdge, toClient, backActions, config, cookie));
      }
      rules.add(rule(clientEdge, toServer, pushAndGo(segmentRouting.labels(path)), config, cookie));
      return rules;
    }
    // Reverse direction (server to client), client edge first.
    for (int i = 0; i < nodes.size(); i++) {
      int port = i == 0 ? client.port() : topology.links().get(links[i - 1]).portAt(nodes.get(i));
      List<FlowAction> actions = List.of(new FlowAction.Output(port));
      rules.add(rule(nodes.get(i), toClient, actions, config, cookie));
      if (copyServerSynAck && i == nodes.size() - 1) {
        rules.add(synAckCopy(nodes.get(i), toClient, actions, config, cookie));
      }
    }
    // Client-to-server direction, server edge first.
    for (int i = nodes.size() - 1; i >= 0; i--) {
      int port =
          i == nodes.size() - 1
              ? server.port()
              : topology.links().get(links[i]).portAt(nodes.get(i));
      rules.add(rule(nodes.get(i), toServer, List.of(new FlowAction.Output(port)), config, cookie));
    }
    return rules;
  }

  /**
   * The assigned path when it joins the two interfaces' switches; otherwise (the interfaces sit on
   * other switches than the ones the selection used) the shortest path between them.
   */
  static Path pathFor(
      Path assigned, HostInterface client, HostInterface server, CandidatePaths paths) {
    if (assigned.source() == client.attachment().index()
        && assigned.destination() == server.attachment().index()) {
      return assigned;
    }
    return paths.requireShortest(client.attachment(), server.attachment());
  }

  /** True for a server edge's SYN/ACK copy rule (see the class comment). */
  public static boolean isSynAckCopy(FlowRule rule) {
    return rule.match() instanceof FlowMatch.SynAck;
  }

  /**
   * The SYN/ACK copy: the copy to the controller first (the segment as the switch got it, before
   * any label push), then what the subflow's rule does.
   */
  private static FlowRule synAckCopy(
      SwitchNode at,
      FlowMatch.Subflow toClient,
      List<FlowAction> forward,
      ControlConfig config,
      long cookie) {
    List<FlowAction> actions = new ArrayList<>();
    actions.add(new FlowAction.ToController());
    actions.addAll(forward);
    return new FlowRule(
        at.dpid(),
        0,
        config.subflowPriority() + 1,
        new FlowMatch.SynAck(toClient),
        actions,
        config.idleTimeoutS(),
        cookie,
        false);
  }

  private static List<FlowAction> pushAndGo(List<Integer> labels) {
    return List.of(
        new FlowAction.PushLabels(labels), new FlowAction.GotoTable(SegmentRouting.LABEL_TABLE));
  }

  private static FlowRule rule(
      SwitchNode at, FlowMatch match, List<FlowAction> actions, ControlConfig config, long cookie) {
    return new FlowRule(
        at.dpid(),
        0,
        config.subflowPriority(),
        match,
        actions,
        config.idleTimeoutS(),
        cookie,
        true);
  }

  /** The same links walked from the other end. */
  static Path reverse(Path p) {
    int[] s = p.switches();
    int[] l = p.links();
    int[] rs = new int[s.length];
    int[] rl = new int[l.length];
    for (int i = 0; i < s.length; i++) {
      rs[i] = s[s.length - 1 - i];
    }
    for (int i = 0; i < l.length; i++) {
      rl[i] = l[l.length - 1 - i];
    }
    return new Path(rs, rl);
  }
}
