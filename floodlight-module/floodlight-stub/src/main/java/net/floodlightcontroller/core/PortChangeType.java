package net.floodlightcontroller.core;

/** How a switch port changed. */
public enum PortChangeType {
  ADD,
  OTHER_UPDATE,
  DELETE,
  UP,
  DOWN,
}
