package org.mpqoe.core.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TopologyLoaderTest {

  @Test
  void embeddedDescriptorsAreAllListedAndValid() {
    assertEquals(
        List.of(
            "compuserve",
            "custom12",
            "delay-pair",
            "fullmesh-cross",
            "jellyfish20",
            "parallel",
            "qomra-dc",
            "three-path"),
        TopologyLoader.embeddedNames());
    for (String name : TopologyLoader.embeddedNames()) {
      Topology t = TopologyLoader.load(name);
      assertEquals(name, t.name());
      assertFalse(t.servers().isEmpty(), name + " has a server");
    }
  }

  @Test
  void compuserveIsTheZooGraphWithoutExternalNodes() {
    Topology t = TopologyLoader.load("compuserve");
    assertEquals(11, t.switches().size());
    assertEquals(14, t.links().size());
    Set<String> edges =
        t.links().stream().map(l -> sorted(l.a().name(), l.b().name())).collect(Collectors.toSet());
    Set<String> expected =
        Set.of(
            sorted("Seattle", "San Francisco"),
            sorted("Seattle", "Chicago"),
            sorted("San Francisco", "Los Angeles"),
            sorted("San Francisco", "Columbus"),
            sorted("Los Angeles", "Dallas"),
            sorted("Dallas", "Houston"),
            sorted("Dallas", "Columbus"),
            sorted("Houston", "Atlanta"),
            sorted("Atlanta", "Washington DC"),
            sorted("Columbus", "Chicago"),
            sorted("Columbus", "Washington DC"),
            sorted("Chicago", "Boston"),
            sorted("Boston", "New York"),
            sorted("New York", "Washington DC"));
    assertEquals(expected, edges);
    t.links().forEach(l -> assertEquals(45.0, l.capacityMbps()));
    assertEquals(3, t.servers().get(0).interfaces().size());
    assertEquals("Columbus", t.servers().get(0).firstHop().name());
    assertEquals(150, t.linkModel().orElseThrow().gaPopulation());
  }

  @Test
  void custom12HasTwelveSwitchesNineteenLinks() {
    Topology t = TopologyLoader.load("custom12");
    assertEquals(12, t.switches().size());
    assertEquals(19, t.links().size());
    assertTrue(t.approximation());
    assertEquals(28, t.linkModel().orElseThrow().gaPopulation());
  }

  @Test
  void qomraDcHasThreeTiersWithThePapersLinkParameters() {
    Topology t = TopologyLoader.load("qomra-dc");
    assertEquals(14, t.switches().size());
    assertEquals(24, t.links().size());
    assertEquals(8, t.clients().size());
    assertEquals(2, t.servers().size());
    for (Link l : t.links()) {
      boolean core = l.a().name().startsWith("c") || l.b().name().startsWith("c");
      assertEquals(core ? 3.0 : 2.0, l.capacityMbps(), l.toString());
      assertEquals(core ? 0.03 : 0.02, l.delayMs(), 1e-12, l.toString());
      assertTrue(l.lossPct() > 0 && l.lossPct() < 3, l.toString());
    }
    for (Host h : t.clients()) {
      assertTrue(h.firstHop().name().startsWith("e"));
      h.interfaces().forEach(f -> assertEquals(1.0, f.capacityMbps()));
      h.interfaces().forEach(f -> assertEquals(0.0, f.lossPct()));
    }
  }

  @Test
  void portsFollowLinksThenHostInterfacesInListOrder() {
    Topology t =
        TopologyLoader.parse(
            """
            {"schema":1,"name":"p","description":"d",
             "switches":[{"name":"a"},{"name":"b","dpid":17},{"name":"c"}],
             "links":[{"a":"a","b":"b","capacityMbps":1,"delayMs":1},
                      {"a":"b","b":"c","capacityMbps":1,"delayMs":1},
                      {"a":"a","b":"c","capacityMbps":1,"delayMs":1}],
             "hosts":[{"name":"h","role":"client","interfaces":[
                {"ip":"10.0.1.11","mac":"02:00:00:00:01:0b","switch":"b"},
                {"ip":"10.0.2.11","mac":"02:00:00:00:02:0b","switch":"a"}]}]}
            """,
            "test");
    Link ab = t.links().get(0);
    Link bc = t.links().get(1);
    Link ac = t.links().get(2);
    assertEquals(1, ab.portA());
    assertEquals(1, ab.portB());
    assertEquals(2, bc.portA());
    assertEquals(1, bc.portB());
    assertEquals(2, ac.portA());
    assertEquals(2, ac.portB());
    assertEquals(3, t.hosts().get(0).interfaces().get(0).port());
    assertEquals(3, t.hosts().get(0).interfaces().get(1).port());
    assertEquals(1L, t.requireSwitch("a").dpid());
    assertEquals(17L, t.requireSwitch("b").dpid());
    assertEquals(3L, t.requireSwitch("c").dpid());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "unknown link end|{'a':'a','b':'zz','capacityMbps':1,'delayMs':1}|links[0].b names unknown switch 'zz'",
        "zero capacity|{'a':'a','b':'b','capacityMbps':0,'delayMs':1}|links[0].capacityMbps must be a positive number",
        "negative delay|{'a':'a','b':'b','capacityMbps':1,'delayMs':-1}|links[0].delayMs must be a number >= 0",
        "loss of 100|{'a':'a','b':'b','capacityMbps':1,'delayMs':1,'lossPct':100}|links[0].lossPct must be in [0, 100)",
        "self loop|{'a':'a','b':'a','capacityMbps':1,'delayMs':1}|links[0] joins switch 'a' to itself",
        "missing capacity|{'a':'a','b':'b','delayMs':1}|links[0].capacityMbps must be a positive number",
        "typo in a field|{'a':'a','b':'b','capacity':1,'delayMs':1}|unknown field 'capacity'",
      })
  void badLinksAreRejectedWithAMessageNamingTheElement(String why, String link, String message) {
    String json =
        ("{'schema':1,'name':'x','description':'d','switches':[{'name':'a'},{'name':'b'}],"
                + "'links':["
                + link
                + "]}")
            .replace('\'', '"');
    TopologyException e =
        assertThrows(TopologyException.class, () -> TopologyLoader.parse(json, "bad.json"));
    assertTrue(e.getMessage().startsWith("bad.json: "), e.getMessage());
    assertTrue(e.getMessage().contains(message), why + ": " + e.getMessage());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "no schema|{'name':'x','description':'d','switches':[{'name':'a'}]}|\"schema\" must be 1",
        "wrong schema|{'schema':2,'name':'x','description':'d','switches':[{'name':'a'}]}|\"schema\" must be 1",
        "bad name|{'schema':1,'name':'X Y','description':'d','switches':[{'name':'a'}]}|must match",
        "no switches|{'schema':1,'name':'x','description':'d','switches':[]}|at least one switch",
        "repeated switch|{'schema':1,'name':'x','description':'d','switches':[{'name':'a'},{'name':'a'}]}|switch name 'a' is repeated",
        "repeated dpid|{'schema':1,'name':'x','description':'d','switches':[{'name':'a','dpid':2},{'name':'b'}]}|dpid 2 of switch 'b' is repeated",
        "bad role|{'schema':1,'name':'x','description':'d','switches':[{'name':'a'}],'hosts':[{'name':'h','role':'peer','interfaces':[{'ip':'10.0.0.1','mac':'02:00:00:00:00:01','switch':'a'}]}]}|hosts[0].role must be",
        "bad ip|{'schema':1,'name':'x','description':'d','switches':[{'name':'a'}],'hosts':[{'name':'h','role':'client','interfaces':[{'ip':'10.0.0.300','mac':'02:00:00:00:00:01','switch':'a'}]}]}|is not an IPv4 address",
        "server address on two links|{'schema':1,'name':'x','description':'d','switches':[{'name':'a'},{'name':'b'}],'hosts':[{'name':'s','role':'server','interfaces':[{'ip':'10.0.1.1','mac':'02:00:00:00:01:01','switch':'a'},{'ip':'10.0.1.1','mac':'02:00:00:00:01:02','switch':'b'}]}]}|hosts[0].interfaces[1].ip 10.0.1.1 is repeated: an address belongs to one interface, on one link",
        "repeated mac|{'schema':1,'name':'x','description':'d','switches':[{'name':'a'}],'hosts':[{'name':'h','role':'client','interfaces':[{'ip':'10.0.0.1','mac':'02:00:00:00:00:01','switch':'a'},{'ip':'10.0.0.2','mac':'02:00:00:00:00:01','switch':'a'}]}]}|mac 02:00:00:00:00:01 is repeated",
        "host without interfaces|{'schema':1,'name':'x','description':'d','switches':[{'name':'a'}],'hosts':[{'name':'h','role':'client','interfaces':[]}]}|has no interfaces",
        "interface on unknown switch|{'schema':1,'name':'x','description':'d','switches':[{'name':'a'}],'hosts':[{'name':'h','role':'client','interfaces':[{'ip':'10.0.0.1','mac':'02:00:00:00:00:01','switch':'q'}]}]}|names unknown switch 'q'",
        "scenario without rows|{'schema':1,'name':'x','description':'d','switches':[{'name':'a'}],'scenario':{'delayMs':{'min':1,'max':2},'bandwidthMbps':{}}}|at least one number of clients",
        "draw without seed|{'schema':1,'name':'x','description':'d','switches':[{'name':'a'}],'draw':{'clients':1,'interfaces':3,'links':'descriptor'}}|\"draw.seed\" is missing",
        "draw of no clients|{'schema':1,'name':'x','description':'d','switches':[{'name':'a'}],'draw':{'seed':1,'clients':0,'interfaces':3,'links':'descriptor'}}|draw.clients must be at least 1",
        "draw links unknown|{'schema':1,'name':'x','description':'d','switches':[{'name':'a'}],'draw':{'seed':1,'clients':1,'interfaces':3,'links':'auto'}}|draw.links must be \"paper\" or \"descriptor\"",
        "paper draw without moments|{'schema':1,'name':'x','description':'d','switches':[{'name':'a'}],'draw':{'seed':1,'clients':1,'interfaces':3,'links':'paper','delayMs':{'min':10,'max':100},'realisedMbps':{'mean':1,'std':0}}}|draw.bandwidthMbps is missing",
        "paper draw, bad range|{'schema':1,'name':'x','description':'d','switches':[{'name':'a'}],'draw':{'seed':1,'clients':1,'interfaces':3,'links':'paper','bandwidthMbps':{'mean':1,'std':0},'delayMs':{'min':10,'max':1},'realisedMbps':{'mean':1,'std':0}}}|draw.delayMs.max is below its min",
        "descriptor draw with moments|{'schema':1,'name':'x','description':'d','switches':[{'name':'a'}],'draw':{'seed':1,'clients':1,'interfaces':3,'links':'descriptor','bandwidthMbps':{'mean':1,'std':0}}}|has no bandwidthMbps",
        "draw access 0|{'schema':1,'name':'x','description':'d','switches':[{'name':'a'}],'draw':{'seed':1,'clients':1,'interfaces':3,'links':'descriptor','accessCapacityMbps':0}}|draw.accessCapacityMbps must be a positive number",
        "draw typo|{'schema':1,'name':'x','description':'d','switches':[{'name':'a'}],'draw':{'seed':1,'client':1}}|unknown field 'client'",
        "not json|{'schema':1,|not a descriptor",
      })
  void badDescriptorsAreRejected(String why, String json, String message) {
    TopologyException e =
        assertThrows(
            TopologyException.class,
            () -> TopologyLoader.parse(json.replace('\'', '"'), "bad.json"));
    assertTrue(e.getMessage().contains(message), why + ": " + e.getMessage());
  }

  @Test
  void unknownTopologyNameListsTheKnownOnes() {
    TopologyException e =
        assertThrows(TopologyException.class, () -> TopologyLoader.load("no-such-topology"));
    assertTrue(e.getMessage().contains("unknown topology 'no-such-topology'"));
    assertTrue(e.getMessage().contains("compuserve"));
  }

  @Test
  void writtenDescriptorsReadBackIdentically() {
    for (String name : TopologyLoader.embeddedNames()) {
      Descriptor d = TopologyLoader.load(name).descriptor();
      String text = TopologyLoader.write(d);
      assertEquals(d, TopologyLoader.parse(text, name).descriptor(), name);
    }
  }

  private static String sorted(String a, String b) {
    return a.compareTo(b) < 0 ? a + "|" + b : b + "|" + a;
  }
}
