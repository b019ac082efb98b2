package org.mpqoe.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpqoe.core.control.MptcpRouterTest.CL1;
import static org.mpqoe.core.control.MptcpRouterTest.syn;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.topology.Host;

/** Connection ids fit the cookie and stay unique among live connections across the wrap. */
class ConnectionIdsTest {
  static final Host CL = MptcpRouterTest.TOPO.clients().get(0);
  static final Host SRV = MptcpRouterTest.TOPO.servers().get(0);

  static int open(ConnectionTable t, int port) {
    Connection c = t.open(CL, SRV, 1, port);
    FlowMatch.Subflow m = new FlowMatch.Subflow(1, 2, port, 80);
    t.put(
        c.with(
            new Connection.Subflow(
                0, m, 0, 0, 0, null, 0, Connection.MatchedBy.HANDSHAKE, List.of())));
    return c.id();
  }

  @Test
  void idsWrapToOneAndSkipLiveOnes() {
    ConnectionTable t = new ConnectionTable(2, 3);
    assertEquals(2, open(t, 1));
    assertEquals(3, open(t, 2));
    assertEquals(1, open(t, 3), "wraps to 1, never to 0 (0 is not a connection)");
    t.remove(t.byId(2));
    assertEquals(2, open(t, 4), "1 and 3 are live: skipped");
    assertThrows(IllegalStateException.class, () -> open(t, 5), "all ids live");
    assertEquals(3, t.snapshot().size());
  }

  @Test
  void theBadFirstIdsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> new ConnectionTable(0));
    assertThrows(
        IllegalArgumentException.class, () -> new ConnectionTable(Cookies.MAX_CONNECTION + 1));
  }

  @Test
  void anExpiryAfterTheWrapEndsTheConnectionItsCookieNames() {
    MptcpRouter r =
        new MptcpRouter(
            Network.of(MptcpRouterTest.TOPO, 8),
            new LinkStateTracker(MptcpRouterTest.TOPO),
            ControlConfig.defaults().withAlgorithm("exact"),
            new ControlStats(),
            Cookies.MAX_CONNECTION);
    r.handle(syn(CL1, 5000));
    r.handle(syn(CL1, 5001));
    List<Integer> ids = r.connections().stream().map(Connection::id).toList();
    assertEquals(List.of(Cookies.MAX_CONNECTION, 1), ids);
    for (Connection c : r.connections()) {
      long cookie = c.subflows().get(0).cookie();
      assertEquals(c.id(), Cookies.connection(cookie));
      r.flowRemoved(cookie);
    }
    assertTrue(r.connections().isEmpty(), "both expiries found their connection");
    assertTrue(r.assignments().isEmpty(), "and the client's assignment was given back");
  }
}
