package org.restlet.data;

import org.restlet.Stand;

/** Who sent a request. */
public class ClientInfo {
  public String getAddress() {
    throw Stand.in();
  }

  public int getPort() {
    throw Stand.in();
  }
}
