package net.floodlightcontroller.core.module;

import java.util.HashMap;
import java.util.Map;

/**
 * What a module gets at init and start-up: the other modules' services and its configuration
 * parameters (from the properties file, keyed by module class).
 */
public class FloodlightModuleContext {
  private final Map<Class<? extends IFloodlightService>, IFloodlightService> services =
      new HashMap<>();
  private final Map<Class<? extends IFloodlightModule>, Map<String, String>> params =
      new HashMap<>();

  public void addService(Class<? extends IFloodlightService> clazz, IFloodlightService service) {
    services.put(clazz, service);
  }

  public <T extends IFloodlightService> T getServiceImpl(Class<T> service) {
    return service.cast(services.get(service));
  }

  /** The parameters of a module; empty when it has none. */
  public Map<String, String> getConfigParams(IFloodlightModule module) {
    return getConfigParams(module.getClass());
  }

  public Map<String, String> getConfigParams(Class<? extends IFloodlightModule> clazz) {
    return params.computeIfAbsent(clazz, c -> new HashMap<>());
  }

  public void addConfigParam(IFloodlightModule mod, String key, String value) {
    getConfigParams(mod.getClass()).put(key, value);
  }
}
