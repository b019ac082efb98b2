package org.mpqoe.core.topology;

/** A descriptor that cannot be read or a request the topology cannot satisfy. */
public class TopologyException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TopologyException(String message) {
    super(message);
  }

  public TopologyException(String message, Throwable cause) {
    super(message, cause);
  }
}
