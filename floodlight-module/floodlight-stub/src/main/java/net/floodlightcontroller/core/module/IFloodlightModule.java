package net.floodlightcontroller.core.module;

import java.util.Collection;
import java.util.Map;

/** A module: its services, its dependencies, and its two start-up phases. */
public interface IFloodlightModule {
  Collection<Class<? extends IFloodlightService>> getModuleServices();

  Map<Class<? extends IFloodlightService>, IFloodlightService> getServiceImpls();

  Collection<Class<? extends IFloodlightService>> getModuleDependencies();

  void init(FloodlightModuleContext context) throws FloodlightModuleException;

  void startUp(FloodlightModuleContext context) throws FloodlightModuleException;
}
