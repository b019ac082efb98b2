package org.mpqoe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpqoe.core.select.Selectors;

class MainTest {
  record Run(int code, String out, String err) {}

  static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
    return new Run(code, out.toString(), err.toString());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"compuserve", "custom12", "jellyfish20"})
  void everyAlgorithmSelectsOnThePaperTopologies(String topology) throws Exception {
    for (String algorithm : Selectors.NAMES) {
      Run r =
          run(
              "select",
              "--topology",
              topology,
              "--clients",
              "3",
              "--algorithm",
              algorithm,
              "--seed",
              "1",
              "--format",
              "json");
      assertEquals(0, r.code(), algorithm + ": " + r.err());
      JsonNode root = new ObjectMapper().readTree(r.out());
      assertEquals(topology, root.get("topology").asText());
      assertEquals(algorithm, root.get("algorithm").asText());
      assertEquals(3, root.get("joins").size());
      for (JsonNode join : root.get("joins")) {
        int paths = join.get("paths").size();
        assertTrue(paths >= 1 && paths <= 3, algorithm + " gave " + paths + " paths");
        double fitness = join.get("fitness").asDouble();
        assertTrue(fitness > 0 && fitness <= 1, algorithm + " fitness " + fitness);
        for (JsonNode p : join.get("paths")) {
          JsonNode sw = p.get("switches");
          assertEquals(join.get("switch").asText(), sw.get(0).asText(), "starts at the client");
          assertTrue(p.get("delayMs").asDouble() > 0);
        }
      }
    }
  }

  @Test
  void textOutputShowsPathsDelaysAndTheScenarioMoments() {
    Run r = run("select", "--topology", "compuserve", "--clients", "5", "--algorithm", "ga");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("(paper: 7.33, 2.46)"), r.out());
    assertTrue(r.out().contains("c5 at "), r.out());
    assertTrue(r.out().contains("subflow 1: "), r.out());
    assertTrue(r.out().contains("> Columbus"), r.out());
  }

  @Test
  void baselineThresholdsReachTheSelectors() throws Exception {
    // By default pd-bw lets some client reuse a link; a threshold no link meets forbids reuse.
    assertTrue(joinsSharingALink("select -t compuserve -c 4 -a pd-bw --format json") > 0);
    assertEquals(
        0,
        joinsSharingALink("select -t compuserve -c 4 -a pd-bw --pd-bw-reuse 1000 --format json"));
  }

  private static int joinsSharingALink(String args) throws Exception {
    Run r = run(args.split(" "));
    assertEquals(0, r.code(), r.err());
    int sharing = 0;
    for (JsonNode join : new ObjectMapper().readTree(r.out()).get("joins")) {
      java.util.Set<String> links = new java.util.HashSet<>();
      boolean shared = false;
      for (JsonNode p : join.get("paths")) {
        JsonNode sw = p.get("switches");
        for (int i = 0; i + 1 < sw.size(); i++) {
          String a = sw.get(i).asText();
          String b = sw.get(i + 1).asText();
          shared |= !links.add(a.compareTo(b) < 0 ? a + "|" + b : b + "|" + a);
        }
      }
      sharing += shared ? 1 : 0;
    }
    return sharing;
  }

  @Test
  void sameSeedSameOutput() {
    String[] args = {
      "select", "-t", "custom12", "-c", "4", "-a", "ga", "-s", "9", "--format", "json"
    };
    JsonNode a = stripTimes(run(args).out());
    JsonNode b = stripTimes(run(args).out());
    assertEquals(a, b);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "unknown topology|select --topology nowhere|mpqoe: unknown topology 'nowhere' (known: compuserve",
        "N = 0|select --topology compuserve --interfaces 0|mpqoe: N (interfaces per client) must be at least 1, got 0",
        "no clients|select --topology compuserve --clients 0|mpqoe: the number of clients must be at least 1",
        "unknown algorithm|select --topology compuserve --algorithm magic|mpqoe: unknown algorithm 'magic'",
        "bad format|select --topology compuserve --format xml|mpqoe: --format must be text or json",
        "not a number|select --topology compuserve --clients many|mpqoe: Invalid value for option '--clients'",
        "unknown flag|select --topology compuserve --frobnicate|mpqoe: Unknown option: '--frobnicate'",
        "no subcommand||mpqoe: a subcommand is required",
        "bad weights|select --topology compuserve --alpha 0 --beta 0|mpqoe: alpha and beta must be >= 0 and not both 0",
        "bad runs|compare --topology compuserve --runs 0|mpqoe: --runs must be at least 1",
        "no link model|scenario --topology qomra-dc|mpqoe: qomra-dc has no link model of the GA paper",
        "bad mutation|select --topology compuserve --mutation 1.5|mpqoe: GA probabilities must be in [0, 1]",
        "too many elites|select --topology custom12 --elites 28|mpqoe: GA elites must be in [0, population)",
        "bad fd bound|select --topology compuserve --fd-delay-bound 0|mpqoe: the fd-delay bound must be positive",
        "qomra k|select --topology qomra-dc -a qomra --qomra-k 0|mpqoe: QoMRA k must be 1..64, got 0",
        "qomra k text|select --topology qomra-dc -a qomra --qomra-k three|mpqoe: Invalid value for option '--qomra-k'",
        "resolution|select --topology qomra-dc -a qomra --resolution 4k|mpqoe: unknown resolution '4k' (known: 1080p, 720p, 480p, 360p, 240p)",
        "weights count|compare --topology qomra-dc --qomra-weights 1,2|mpqoe: --qomra-weights needs 4 numbers",
        "weights zero|select --topology qomra-dc --qomra-weights 0,0,0,0|mpqoe: QoMRA weights must not all be 0",
        "weights text|select --topology qomra-dc --qomra-weights 1,x,1,1|mpqoe: Invalid value for option '--qomra-weights'",
        "interval|select --topology qomra-dc --qomra-interval 0|mpqoe: QoMRA interval t must be a positive number",
        "controller resolution|controller --topology qomra-dc -a qomra --resolution 8k --rest 0|mpqoe: --qomra-resolution: 'qomraResolution' must be one of 1080p, 720p, 480p, 360p, 240p, got '8k'",
        "controller alpha|controller --topology compuserve --alpha 1e400 --rest 0|mpqoe: --alpha: 'alpha' must be a finite number, 0 to 1, got '1e400'",
        "controller thr-cong|controller --topology compuserve --thr-cong 1e309 --rest 0|mpqoe: --thr-cong: 'thrCong' must be a finite number",
        "controller idle|controller --topology compuserve --idle-timeout 0 --rest 0|mpqoe: --idle-timeout: 'idleTimeoutS' must be an integer, 1 to 65535",
        "controller weights|controller --topology compuserve --qomra-weights 1,2 --rest 0|mpqoe: --qomra-weights needs 4 numbers",
        "controller both zero|controller --topology compuserve --alpha 0 --beta 0 --rest 0|mpqoe: alpha and beta must be >= 0 and not both 0",
      })
  void badArgumentsGiveOneLineAndExitCodeTwo(String why, String args, String message) {
    Run r = run(args == null ? new String[0] : args.split(" "));
    assertEquals(2, r.code(), why);
    assertTrue(r.err().startsWith(message), why + ": " + r.err());
    assertEquals(1, r.err().strip().lines().count(), why + ": " + r.err());
    assertEquals("", r.out(), why);
  }

  @Test
  void disconnectedClientIsAClearError() throws URISyntaxException {
    String file = resource("disconnected.json");
    Run r = run("select", "--topology", file, "--clients", "1");
    assertEquals(2, r.code());
    assertEquals(
        "mpqoe: switch 'a' cannot reach switch 'd' in disconnected within 8 hops", r.err().strip());
  }

  @Test
  void compareAndScenarioTables() {
    Run c = run("compare", "--topology", "custom12", "--clients", "3", "--runs", "2");
    assertEquals(0, c.code(), c.err());
    for (String name : Selectors.NAMES) {
      assertTrue(c.out().lines().anyMatch(l -> l.startsWith(name + " ")), name + "\n" + c.out());
    }
    Run s = run("scenario", "--topology", "jellyfish20", "--samples", "50");
    assertEquals(0, s.code(), s.err());
    assertTrue(s.out().contains("6.91 / 2.16"), s.out());
    assertTrue(s.out().contains("21.16 / 13.03"), s.out());
  }

  @Test
  void compareAsCsvIsOneRowPerAlgorithmAndRunAndRepeatable() {
    String[] args = {
      "compare",
      "--topology",
      "qomra-dc",
      "--clients",
      "8",
      "--runs",
      "2",
      "--format",
      "csv",
      "--algorithms",
      "qomra,none"
    };
    Run c = run(args);
    assertEquals(0, c.code(), c.err());
    List<String> lines = c.out().lines().toList();
    assertEquals(CompareCommand.CSV_HEADER, lines.get(0));
    assertEquals(5, lines.size(), c.out()); // 2 algorithms x 2 seeds
    int columns = CompareCommand.CSV_HEADER.split(",").length;
    for (String line : lines.subList(1, lines.size())) {
      assertEquals(columns, line.split(",", -1).length, line);
    }
    assertTrue(lines.get(1).startsWith("qomra,1,8,"), lines.get(1));
    assertTrue(lines.get(1).endsWith(",0"), "QoMRA never overbooks a link: " + lines.get(1));
    assertTrue(!lines.get(3).endsWith(",0"), "plain forwarding does: " + lines.get(3));
    assertEquals(c.out(), run(args).out(), "no timing in the CSV: the same seeds, the same bytes");
    Run bad = run("compare", "--topology", "qomra-dc", "--format", "xml");
    assertEquals(2, bad.code());
    assertEquals("mpqoe: --format must be text or csv, got 'xml'", bad.err().strip());
    assertEquals("", bad.out());
  }

  @Test
  void qomraOnTheDataCentreTopology() throws Exception {
    Run r =
        run(
            "select",
            "--topology",
            "qomra-dc",
            "--clients",
            "8",
            "--algorithm",
            "qomra",
            "--format",
            "json");
    assertEquals(0, r.code(), r.err());
    JsonNode root = new ObjectMapper().readTree(r.out());
    assertEquals(8, root.get("joins").size());
    int subflows = 0;
    for (JsonNode join : root.get("joins")) {
      subflows += join.get("paths").size();
      for (JsonNode p : join.get("paths")) {
        JsonNode labels = p.get("labels");
        assertTrue(labels.size() >= 1, p.toString());
        assertEquals(16000, labels.get(labels.size() - 1).asInt() & ~1, "ends at a core switch");
      }
    }
    // 8 core links of 3 Mbit/s and 16 edge links of 2 Mbit/s at 1 Mbit/s a subflow: not 8 x 3.
    assertTrue(subflows > 8 && subflows < 24, "admitted " + subflows);
    Run c =
        run(
            "compare",
            "--topology",
            "qomra-dc",
            "--clients",
            "8",
            "--runs",
            "1",
            "--algorithms",
            "qomra,none");
    assertEquals(0, c.code(), c.err());
    String row =
        c.out().lines().filter(l -> l.startsWith("qomra ")).reduce((a, b) -> b).orElseThrow();
    assertTrue(row.endsWith(" 0.00"), "QoMRA never overbooks a link: " + row);
    String none =
        c.out().lines().filter(l -> l.startsWith("none ")).reduce((a, b) -> b).orElseThrow();
    assertTrue(!none.endsWith(" 0.00"), "plain forwarding does: " + none);
  }

  @Test
  void topologyCommands() throws URISyntaxException {
    Run list = run("topology", "list");
    assertEquals(0, list.code());
    assertTrue(list.out().contains("compuserve       11 switches  14 links"), list.out());
    Run show = run("topology", "show", "three-path");
    assertTrue(show.out().contains("10.0.1.11       02:00:00:00:01:0b on p1:2"), show.out());
    Run valid = run("topology", "validate", resource("disconnected.json"));
    assertEquals(0, valid.code(), valid.err());
    Run gen = run("topology", "jellyfish", "--seed", "1");
    assertEquals(0, gen.code());
    assertTrue(gen.out().contains("\"seed\": 1,"), gen.out());
  }

  private static String resource(String name) throws URISyntaxException {
    return Path.of(MainTest.class.getClassLoader().getResource(name).toURI()).toString();
  }

  private static JsonNode stripTimes(String json) {
    try {
      JsonNode root = new ObjectMapper().readTree(json);
      root.get("joins")
          .forEach(j -> ((com.fasterxml.jackson.databind.node.ObjectNode) j).remove("timeMs"));
      return root;
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
