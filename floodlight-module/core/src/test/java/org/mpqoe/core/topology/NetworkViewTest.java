package org.mpqoe.core.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.topology.NetworkView.AttachmentView;
import org.mpqoe.core.topology.NetworkView.DuplexLink;
import org.mpqoe.core.topology.NetworkView.LinkView;
import org.mpqoe.core.topology.NetworkView.PortView;
import org.mpqoe.core.topology.NetworkView.SwitchView;

class NetworkViewTest {
  private static SwitchView sw(long dpid, PortView... ports) {
    return new SwitchView(dpid, List.of(ports));
  }

  private static PortView up(int port) {
    return new PortView(port, 10_000, true);
  }

  @Test
  void bothDirectionsMakeOneDuplexLinkWithTheSmallerLatency() {
    NetworkView v =
        new NetworkView(
            List.of(sw(2, up(1)), sw(1, up(3))),
            List.of(new LinkView(2, 1, 1, 3, 7.5), new LinkView(1, 3, 2, 1, 4.0)),
            List.of());
    assertEquals(List.of(new DuplexLink(1, 3, 2, 1, 4.0)), v.duplexLinks());
    assertTrue(v.oneWayLinks().isEmpty());
  }

  @Test
  void anUnmeasuredDirectionLeavesTheOtherOnesLatency() {
    NetworkView v =
        new NetworkView(
            List.of(sw(1, up(1)), sw(2, up(1))),
            List.of(new LinkView(1, 1, 2, 1, Double.NaN), new LinkView(2, 1, 1, 1, 3.0)),
            List.of());
    assertEquals(3.0, v.duplexLinks().get(0).latencyMs());
  }

  @Test
  void oneDirectionADownPortOrAnUnknownSwitchIsNotADuplexLink() {
    LinkView oneWay = new LinkView(1, 1, 2, 1, 1);
    LinkView toDown = new LinkView(1, 2, 2, 2, 1);
    LinkView fromDown = new LinkView(2, 2, 1, 2, 1);
    LinkView toGone = new LinkView(1, 3, 9, 1, 1);
    LinkView fromGone = new LinkView(9, 1, 1, 3, 1);
    NetworkView v =
        new NetworkView(
            List.of(sw(1, up(1), up(2), up(3)), sw(2, up(1), new PortView(2, 10_000, false))),
            List.of(oneWay, toDown, fromDown, toGone, fromGone),
            List.of());
    assertTrue(v.duplexLinks().isEmpty());
    assertEquals(List.of(oneWay, toDown, fromDown, toGone, fromGone), v.oneWayLinks());
  }

  @Test
  void parallelLinksStayDistinct() {
    NetworkView v =
        new NetworkView(
            List.of(sw(1, up(1), up(2)), sw(2, up(1), up(2))),
            List.of(
                new LinkView(1, 2, 2, 2, 1),
                new LinkView(2, 2, 1, 2, 1),
                new LinkView(1, 1, 2, 1, 1),
                new LinkView(2, 1, 1, 1, 1)),
            List.of());
    assertEquals(
        List.of(new DuplexLink(1, 1, 2, 1, 1), new DuplexLink(1, 2, 2, 2, 1)), v.duplexLinks());
  }

  @Test
  void badInputIsRefusedWithTheReason() {
    assertThrows(IllegalArgumentException.class, () -> new PortView(0, 1, true));
    assertThrows(IllegalArgumentException.class, () -> new PortView(1, -1, true));
    assertThrows(IllegalArgumentException.class, () -> sw(1, up(1), up(1)));
    assertThrows(IllegalArgumentException.class, () -> new LinkView(1, 1, 1, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> new LinkView(1, 1, 2, 1, -1));
    assertThrows(
        IllegalArgumentException.class, () -> new LinkView(1, 1, 2, 1, Double.POSITIVE_INFINITY));
    assertThrows(IllegalArgumentException.class, () -> new AttachmentView("10.0.1", "m", 1, 1));
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new NetworkView(List.of(sw(5), sw(5)), List.of(), List.of()));
    assertTrue(e.getMessage().contains("0000000000000005"), e.getMessage());
  }
}
