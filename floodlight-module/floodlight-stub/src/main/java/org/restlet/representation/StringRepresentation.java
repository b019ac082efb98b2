package org.restlet.representation;

import org.restlet.data.MediaType;

/** A body made of a string. */
public class StringRepresentation extends Representation {
  public StringRepresentation(CharSequence text, MediaType mediaType) {}
}
