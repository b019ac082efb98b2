package net.floodlightcontroller.topology;

import net.floodlightcontroller.core.module.IFloodlightService;

/** The topology computed from the discovered links. */
public interface ITopologyService extends IFloodlightService {
  void addListener(ITopologyListener listener);
}
