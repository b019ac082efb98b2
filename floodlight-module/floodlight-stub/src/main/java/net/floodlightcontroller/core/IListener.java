package net.floodlightcontroller.core;

/** A listener in one of Floodlight's ordered callback chains. */
public interface IListener<T> {
  /** Whether the chain goes on after this listener. */
  enum Command {
    CONTINUE,
    STOP
  }

  String getName();

  boolean isCallbackOrderingPrereq(T type, String name);

  boolean isCallbackOrderingPostreq(T type, String name);
}
