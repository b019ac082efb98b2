package net.floodlightcontroller.linkdiscovery;

/** Link discovery's vocabulary. */
public interface ILinkDiscovery {
  /** What a discovered link is: only DIRECT_LINK joins two switches of one island. */
  enum LinkType {
    INVALID_LINK,
    DIRECT_LINK,
    MULTIHOP_LINK,
    TUNNEL
  }

  /** One change of the discovered links, as topology listeners receive them. */
  class LDUpdate {
    protected LDUpdate() {}
  }
}
