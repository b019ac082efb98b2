package net.floodlightcontroller.devicemanager;

import java.util.Collection;
import net.floodlightcontroller.core.module.IFloodlightService;

/** The device manager. */
public interface IDeviceService extends IFloodlightService {
  Collection<? extends IDevice> getAllDevices();

  void addListener(IDeviceListener listener);
}
