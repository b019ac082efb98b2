package org.mpqoe.ofplan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFlowRemovedReason;
import org.projectfloodlight.openflow.protocol.OFPortConfig;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortState;
import org.projectfloodlight.openflow.types.OFPort;

class OfEventsTest {
  private static OFPortDesc port(Set<OFPortState> state, Set<OFPortConfig> config) {
    return new OfTranslator()
        .factory()
        .buildPortDesc()
        .setPortNo(OFPort.of(3))
        .setState(state)
        .setConfig(config)
        .build();
  }

  @Test
  void aPortIsUpUnlessGoneLinkDownOrAdministrativelyDown() {
    assertEquals(true, OfEvents.portUp(port(Set.of(OFPortState.LIVE), Set.of()), false));
    assertEquals(false, OfEvents.portUp(port(Set.of(OFPortState.LIVE), Set.of()), true));
    assertEquals(false, OfEvents.portUp(port(Set.of(OFPortState.LINK_DOWN), Set.of()), false));
    assertEquals(
        false, OfEvents.portUp(port(Set.of(), Set.of(OFPortConfig.PORT_DOWN)), false), "admin");
  }

  @Test
  void timeoutsAndEvictionsAreExpiriesADeleteIsNot() {
    assertEquals(true, OfEvents.expired(OFFlowRemovedReason.IDLE_TIMEOUT));
    assertEquals(true, OfEvents.expired(OFFlowRemovedReason.HARD_TIMEOUT));
    assertEquals(true, OfEvents.expired(OFFlowRemovedReason.EVICTION));
    assertEquals(false, OfEvents.expired(OFFlowRemovedReason.DELETE));
  }
}
