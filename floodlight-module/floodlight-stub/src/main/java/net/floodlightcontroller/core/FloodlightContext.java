package net.floodlightcontroller.core;

import java.util.concurrent.ConcurrentHashMap;

/** Per-message storage Floodlight hands to every listener. */
public class FloodlightContext {
  private final ConcurrentHashMap<String, Object> storage = new ConcurrentHashMap<>();

  public ConcurrentHashMap<String, Object> getStorage() {
    return storage;
  }
}
