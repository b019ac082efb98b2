package net.floodlightcontroller.core.module;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Not a Floodlight type: the base of this stand-in's module classes, which the adapter names only
 * as keys of configuration parameters. Floodlight's own modules do the work at run time.
 */
public abstract class ModuleStandIn implements IFloodlightModule {
  @Override
  public Collection<Class<? extends IFloodlightService>> getModuleServices() {
    return List.of();
  }

  @Override
  public Map<Class<? extends IFloodlightService>, IFloodlightService> getServiceImpls() {
    return Map.of();
  }

  @Override
  public Collection<Class<? extends IFloodlightService>> getModuleDependencies() {
    return List.of();
  }

  @Override
  public void init(FloodlightModuleContext context) {}

  @Override
  public void startUp(FloodlightModuleContext context) {}
}
