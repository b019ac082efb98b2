package org.mpqoe.floodlight;

import net.floodlightcontroller.core.module.IFloodlightService;
import org.mpqoe.core.control.MptcpControlPlane;
import org.mpqoe.core.control.RestAccess;

/**
 * mpqoe inside Floodlight: the control plane (its decisions, state and REST API) for other modules
 * and for the REST resources, which find it in the Restlet context under this interface's name.
 */
public interface IMpqoeService extends IFloodlightService {
  /** The control plane, shared with the standalone runtime's code. */
  MptcpControlPlane plane();

  /** The parameters the module was started with. */
  MpqoeSettings settings();

  /** Who may write through REST: from Floodlight's REST address and the module's restToken. */
  RestAccess restAccess();
}
