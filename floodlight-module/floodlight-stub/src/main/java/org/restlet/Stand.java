package org.restlet;

/** Not a Restlet type: what a stand-in method that needs Restlet itself throws. */
public final class Stand {
  private Stand() {}

  public static UnsupportedOperationException in() {
    return new UnsupportedOperationException(
        "a stand-in for Restlet: run with floodlight.jar (docs/floodlight.md)");
  }
}
