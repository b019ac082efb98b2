package net.floodlightcontroller.restserver;

import net.floodlightcontroller.core.module.IFloodlightService;

/** Floodlight's REST server: modules add their routes. */
public interface IRestApiService extends IFloodlightService {
  void addRestletRoutable(RestletRoutable routable);
}
