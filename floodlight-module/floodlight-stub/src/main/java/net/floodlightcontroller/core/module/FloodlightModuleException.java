package net.floodlightcontroller.core.module;

/** A module could not start; Floodlight stops. */
public class FloodlightModuleException extends Exception {
  private static final long serialVersionUID = 1L;

  public FloodlightModuleException(String error) {
    super(error);
  }

  public FloodlightModuleException(String message, Throwable cause) {
    super(message, cause);
  }
}
