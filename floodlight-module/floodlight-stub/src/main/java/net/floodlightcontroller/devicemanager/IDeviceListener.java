package net.floodlightcontroller.devicemanager;

import net.floodlightcontroller.core.IListener;

/** Device manager events. */
public interface IDeviceListener extends IListener<String> {
  void deviceAdded(IDevice device);

  void deviceRemoved(IDevice device);

  void deviceMoved(IDevice device);

  void deviceIPV4AddrChanged(IDevice device);

  void deviceIPV6AddrChanged(IDevice device);

  void deviceVlanChanged(IDevice device);
}
