package net.floodlightcontroller.topology;

import java.util.List;
import net.floodlightcontroller.linkdiscovery.ILinkDiscovery.LDUpdate;

/** Called after the topology was recomputed. */
public interface ITopologyListener {
  void topologyChanged(List<LDUpdate> linkUpdates);
}
