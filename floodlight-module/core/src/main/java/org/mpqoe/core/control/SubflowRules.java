package org.mpqoe.core.control;

import java.util.ArrayList;
import java.util.List;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.topology.HostInterface;
import org.mpqoe.core.topology.Link;
import org.mpqoe.core.topology.SwitchNode;
import org.mpqoe.core.topology.Topology;

/**
 * The rules that carry one subflow over one path in both directions: per-hop rules on every switch
 * of the path, or, with segment routing, one ingress rule per direction that pushes the label stack
 * (the label rules are proactive). Rules are listed farthest switch first for the client's
 * direction, so that the handshake packet never overtakes its rules.
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
   * @param copyServerReplyToController the server-side rule of the reverse direction also copies to
   *     the controller (to read the server's key from the SYN/ACK)
   */
  public List<FlowRule> build(
      FlowMatch.Subflow toServer,
      HostInterface client,
      HostInterface server,
      Path path,
      ControlConfig config,
      long cookie,
      boolean copyServerReplyToController) {
    List<SwitchNode> nodes = path.switchNodes(topology);
    int[] links = path.links();
    List<FlowRule> rules = new ArrayList<>();
    FlowMatch.Subflow toClient = toServer.reversed();
    if (config.segmentRouting() && links.length > 0) {
      Path back = reverse(path);
      SwitchNode serverEdge = nodes.get(nodes.size() - 1);
      SwitchNode clientEdge = nodes.get(0);
      List<FlowAction> backActions = new ArrayList<>(pushAndGo(segmentRouting.labels(back)));
      if (copyServerReplyToController) {
        backActions.add(0, new FlowAction.ToController());
      }
      rules.add(rule(serverEdge, toClient, backActions, config, cookie));
      rules.add(rule(clientEdge, toServer, pushAndGo(segmentRouting.labels(path)), config, cookie));
      return rules;
    }
    // Reverse direction (server to client), client edge first.
    for (int i = 0; i < nodes.size(); i++) {
      int port = i == 0 ? client.port() : topology.links().get(links[i - 1]).portAt(nodes.get(i));
      List<FlowAction> actions = new ArrayList<>();
      actions.add(new FlowAction.Output(port));
      if (copyServerReplyToController && i == nodes.size() - 1) {
        actions.add(new FlowAction.ToController());
      }
      rules.add(rule(nodes.get(i), toClient, actions, config, cookie));
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

  /** The rule of the reverse direction at the server edge without its copy to the controller. */
  public FlowRule withoutControllerCopy(FlowRule rule) {
    List<FlowAction> actions =
        rule.actions().stream().filter(a -> !(a instanceof FlowAction.ToController)).toList();
    return new FlowRule(
        rule.dpid(),
        rule.table(),
        rule.priority(),
        rule.match(),
        actions,
        rule.idleTimeoutS(),
        rule.cookie(),
        rule.notifyRemoval());
  }

  /**
   * The port on the first switch of {@code path} where a packet of the client's direction leaves.
   */
  public int firstHopPort(Path path, HostInterface server) {
    int[] links = path.links();
    if (links.length == 0) {
      return server.port();
    }
    Link l = topology.links().get(links[0]);
    return l.portAt(topology.switches().get(path.source()));
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
