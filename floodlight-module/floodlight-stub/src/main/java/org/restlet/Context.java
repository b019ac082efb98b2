package org.restlet;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** What an application's restlets share (Floodlight puts its services in the attributes). */
public class Context {
  private final ConcurrentMap<String, Object> attributes = new ConcurrentHashMap<>();

  public ConcurrentMap<String, Object> getAttributes() {
    return attributes;
  }
}
