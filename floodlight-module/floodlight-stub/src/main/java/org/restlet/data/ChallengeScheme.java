package org.restlet.data;

/** An authentication scheme. */
public final class ChallengeScheme {
  public static final ChallengeScheme HTTP_OAUTH_BEARER = new ChallengeScheme("HTTP_Bearer");

  private final String name;

  private ChallengeScheme(String name) {
    this.name = name;
  }

  @Override
  public String toString() {
    return name;
  }
}
