package org.mpqoe.floodlight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The packaged jar beside floodlight.jar in one class loader, as {@code java -cp
 * floodlight.jar:mpqoe-floodlight.jar} has them: Floodlight's own Jackson comes first (2.4.4 in a
 * build from Floodlight's lib/, 2.9 in some others), and the core must still read descriptors and
 * write its REST answers (it uses its relocated Jackson 2.18). Run by {@code mvn
 * -Dfloodlight.jar=... verify}.
 */
class ShadedJarIT {
  private static URL url(String property) throws Exception {
    String path = System.getProperty(property);
    assertNotNull(path, "system property " + property);
    File f = new File(path);
    assertTrue(f.exists(), path);
    return f.toURI().toURL();
  }

  private static Object call(Class<?> c, Object target, String name, Object... args)
      throws Exception {
    for (Method m : c.getMethods()) {
      if (m.getName().equals(name) && m.getParameterCount() == args.length) {
        try {
          return m.invoke(target, args);
        } catch (InvocationTargetException e) {
          throw (Exception) e.getCause();
        }
      }
    }
    throw new NoSuchMethodException(c.getName() + "." + name);
  }

  /** Floodlight's bundled jackson-databind version, e.g. "2.4.4". */
  private static String floodlightsJackson(ClassLoader cl) throws Exception {
    Class<?> version = cl.loadClass("com.fasterxml.jackson.databind.cfg.PackageVersion");
    return String.valueOf(version.getField("VERSION").get(null));
  }

  /** Jackson reads records from 2.12 on; the core's descriptors are records. */
  private static boolean readsRecords(String version) {
    String[] v = version.split("\\.");
    int major = Integer.parseInt(v[0]);
    int minor = Integer.parseInt(v[1]);
    return major > 2 || (major == 2 && minor >= 12);
  }

  @Test
  void theCoreWorksBesideFloodlightsJackson() throws Exception {
    URL[] urls = {url("floodlight.jar"), url("mpqoe.floodlight.jar")};
    try (URLClassLoader cl = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader())) {
      System.out.println("Floodlight's Jackson: " + floodlightsJackson(cl));

      Class<?> loader = cl.loadClass("org.mpqoe.core.topology.TopologyLoader");
      Object topology = call(loader, null, "load", "compuserve");
      Class<?> configClass = cl.loadClass("org.mpqoe.core.control.ControlConfig");
      Object config = call(configClass, null, "defaults");
      Class<?> planeClass = cl.loadClass("org.mpqoe.core.control.MptcpControlPlane");
      Object plane = planeClass.getConstructors()[0].newInstance(topology, config);
      Object rest = call(planeClass, plane, "rest");
      Object get = call(rest.getClass(), rest, "handle", "GET", "/mpqoe/topology", null);
      assertEquals(200, call(get.getClass(), get, "status"));
      assertTrue(
          String.valueOf(call(get.getClass(), get, "json")).startsWith("{\"name\":\"compuserve\""));
      Object put =
          call(
              rest.getClass(), rest, "handle", "PUT", "/mpqoe/config", "{\"algorithm\":\"exact\"}");
      assertEquals(200, call(put.getClass(), put, "status"));

      List<String> modules = new ArrayList<>();
      Class<?> api = cl.loadClass("net.floodlightcontroller.core.module.IFloodlightModule");
      for (Object m : ServiceLoader.load(api, cl)) {
        modules.add(m.getClass().getName());
      }
      assertTrue(modules.contains("org.mpqoe.floodlight.MpqoeModule"), modules.toString());
    }
  }

  @Test
  void withoutRelocationFloodlightsJacksonCannotReadDescriptors() throws Exception {
    URL[] urls = {url("floodlight.jar"), url("mpqoe.core.jar")};
    try (URLClassLoader cl = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader())) {
      String version = floodlightsJackson(cl);
      Assumptions.assumeFalse(
          readsRecords(version), "Floodlight's Jackson " + version + " reads records itself");
      Class<?> loader = cl.loadClass("org.mpqoe.core.topology.TopologyLoader");
      Exception e =
          org.junit.jupiter.api.Assertions.assertThrows(
              Exception.class, () -> call(loader, null, "load", "compuserve"));
      assertEquals("org.mpqoe.core.topology.TopologyException", e.getClass().getName());
      // Jackson's own wording differs between versions ("No suitable constructor" in 2.4,
      // "Cannot construct instance" in 2.9): only the core's part of the message is checked.
      assertTrue(e.getMessage().startsWith("compuserve: not a descriptor: "), e.getMessage());
    }
  }

  @Test
  void theJarHoldsNothingThatFloodlightAlreadyHas() throws Exception {
    try (JarFile jar = new JarFile(new File(url("mpqoe.floodlight.jar").toURI()))) {
      List<String> clashing =
          jar.stream()
              .map(e -> e.getName())
              .filter(
                  n ->
                      n.startsWith("com/fasterxml/")
                          || n.startsWith("org/projectfloodlight/")
                          || n.startsWith("io/netty/")
                          || n.startsWith("com/google/")
                          || n.startsWith("org/slf4j/")
                          || n.startsWith("ch/qos/")
                          || n.startsWith("org/restlet/")
                          || n.startsWith("net/floodlightcontroller/")
                          || n.equals("logback.xml"))
              .toList();
      assertEquals(List.of(), clashing);
      assertNotNull(jar.getEntry("org/mpqoe/ofplan/OfTranslator.class"));
      assertNotNull(jar.getEntry("org/mpqoe/ofplan/PlanApplier.class"));
      assertEquals(
          null,
          jar.getEntry("org/mpqoe/openflow/StandaloneController.class"),
          "the standalone runtime stays out");
      assertNotNull(jar.getEntry("org/mpqoe/shaded/jackson/databind/ObjectMapper.class"));
      assertNotNull(jar.getEntry("topologies/compuserve.json"));
    }
  }
}
