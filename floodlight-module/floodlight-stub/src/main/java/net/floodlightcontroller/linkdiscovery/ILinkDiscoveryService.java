package net.floodlightcontroller.linkdiscovery;

import java.util.Map;
import net.floodlightcontroller.core.module.IFloodlightService;
import net.floodlightcontroller.linkdiscovery.internal.LinkInfo;

/** The links LLDP found, one per direction. */
public interface ILinkDiscoveryService extends IFloodlightService {
  Map<Link, LinkInfo> getLinks();

  ILinkDiscovery.LinkType getLinkType(Link lt, LinkInfo info);
}
