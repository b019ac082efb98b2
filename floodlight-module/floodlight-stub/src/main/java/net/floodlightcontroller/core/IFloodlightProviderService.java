package net.floodlightcontroller.core;

import java.util.List;
import java.util.Map;
import net.floodlightcontroller.core.module.IFloodlightService;
import org.projectfloodlight.openflow.protocol.OFType;

/** The controller core: message listener chains. */
public interface IFloodlightProviderService extends IFloodlightService {
  void addOFMessageListener(OFType type, IOFMessageListener listener);

  void removeOFMessageListener(OFType type, IOFMessageListener listener);

  Map<OFType, List<IOFMessageListener>> getListeners();
}
