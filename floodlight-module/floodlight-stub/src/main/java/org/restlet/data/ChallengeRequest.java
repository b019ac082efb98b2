package org.restlet.data;

/** A WWW-Authenticate challenge. */
public class ChallengeRequest {
  public ChallengeRequest(ChallengeScheme scheme, String realm) {}
}
