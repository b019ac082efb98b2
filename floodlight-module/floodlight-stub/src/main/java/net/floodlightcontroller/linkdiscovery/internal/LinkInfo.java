package net.floodlightcontroller.linkdiscovery.internal;

import java.util.Date;

/** When a link was first and last seen. */
public class LinkInfo {
  private final Date firstSeenTime;
  private final Date lastLldpReceivedTime;
  private final Date lastBddpReceivedTime;

  public LinkInfo(Date firstSeenTime, Date lastLldpReceivedTime, Date lastBddpReceivedTime) {
    this.firstSeenTime = firstSeenTime;
    this.lastLldpReceivedTime = lastLldpReceivedTime;
    this.lastBddpReceivedTime = lastBddpReceivedTime;
  }

  public Date getFirstSeenTime() {
    return firstSeenTime;
  }

  public Date getUnicastValidTime() {
    return lastLldpReceivedTime;
  }

  public Date getMulticastValidTime() {
    return lastBddpReceivedTime;
  }
}
