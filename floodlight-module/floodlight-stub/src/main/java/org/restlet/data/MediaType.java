package org.restlet.data;

/** A media type. */
public final class MediaType {
  public static final MediaType APPLICATION_JSON = new MediaType("application/json");

  private final String name;

  private MediaType(String name) {
    this.name = name;
  }

  @Override
  public String toString() {
    return name;
  }
}
