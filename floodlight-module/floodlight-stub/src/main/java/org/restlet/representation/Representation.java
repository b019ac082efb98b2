package org.restlet.representation;

import java.io.IOException;
import org.restlet.Stand;
import org.restlet.data.MediaType;

/** A message body. */
public abstract class Representation {
  public boolean isAvailable() {
    throw Stand.in();
  }

  public MediaType getMediaType() {
    throw Stand.in();
  }

  public String getText() throws IOException {
    throw Stand.in();
  }
}
