package org.mpqoe.core.scenario;

import java.util.List;
import org.mpqoe.core.path.LinkState;
import org.mpqoe.core.topology.Host;
import org.mpqoe.core.topology.LinkModel;
import org.mpqoe.core.topology.Topology;

/**
 * A seeded experiment set-up: the link state the clients meet, the clients in join order (one every
 * {@code joinIntervalS} seconds) and, when the paper's link model was used, its target bandwidth
 * moments beside the realised ones.
 *
 * @param target the bandwidth mean/std the links were drawn with (the paper's for this many clients
 *     unless {@link ScenarioGenerator.LinkSpec} replaced them), null with descriptor links
 * @param realised mean and (sample) standard deviation of the drawn link bandwidths
 */
public record Scenario(
    Topology topology,
    long seed,
    LinkState links,
    List<Client> clients,
    double joinIntervalS,
    LinkModel.Moments target,
    LinkModel.Moments realised) {

  /** A client, the server it streams from, and when it joins. */
  public record Client(Host host, Host server, double joinTimeS) {}

  public Scenario {
    clients = List.copyOf(clients);
  }
}
