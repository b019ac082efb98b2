package net.floodlightcontroller.core.internal;

import java.util.Map;
import java.util.Set;
import net.floodlightcontroller.core.IOFSwitch;
import net.floodlightcontroller.core.IOFSwitchListener;
import net.floodlightcontroller.core.module.IFloodlightService;
import org.projectfloodlight.openflow.types.DatapathId;

/** The switches Floodlight knows. */
public interface IOFSwitchService extends IFloodlightService {
  Map<DatapathId, IOFSwitch> getAllSwitchMap();

  IOFSwitch getSwitch(DatapathId dpid);

  IOFSwitch getActiveSwitch(DatapathId dpid);

  void addOFSwitchListener(IOFSwitchListener listener);

  void removeOFSwitchListener(IOFSwitchListener listener);

  Set<DatapathId> getAllSwitchDpids();
}
