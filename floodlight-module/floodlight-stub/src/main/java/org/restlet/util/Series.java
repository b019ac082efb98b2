package org.restlet.util;

import org.restlet.Stand;

/** Named values, such as a message's headers. */
public class Series<T> {
  protected Series() {}

  public String getFirstValue(String name, boolean ignoreCase) {
    throw Stand.in();
  }
}
