package org.mpqoe.floodlight.standin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every declaration of the stand-in exists in the Floodlight jar given with {@code
 * -Dfloodlight.jar}, with the same kind, the same parameter and return types and the same
 * supertypes: code compiled against the stand-in links against Floodlight. Skipped without a jar.
 */
class StandInConformanceTest {
  /** The stand-in's own helpers, which Floodlight does not have. */
  private static final Set<String> PROJECT_ONLY =
      Set.of(
          "net.floodlightcontroller.core.module.ModuleStandIn",
          "org.restlet.Stand",
          "net.floodlightcontroller.package-info",
          "org.restlet.package-info");

  @Test
  void everyDeclarationIsFloodlights() throws Exception {
    String jar = System.getProperty("floodlight.jar");
    assumeTrue(jar != null && !jar.isEmpty(), "no -Dfloodlight.jar: nothing to compare with");
    List<String> problems = new ArrayList<>();
    List<String> classes = standInClasses();
    assertTrue(classes.size() > 30, "the stand-in's classes were found: " + classes.size());
    try (URLClassLoader real =
        new URLClassLoader(
            new URL[] {Path.of(jar).toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
      for (String name : classes) {
        Class<?> ours = Class.forName(name, false, getClass().getClassLoader());
        Class<?> theirs;
        try {
          theirs = Class.forName(name, false, real);
        } catch (ClassNotFoundException e) {
          problems.add(name + ": not in " + jar);
          continue;
        }
        compare(ours, theirs, real, problems);
      }
    }
    assertEquals(List.of(), problems, "stand-in declarations that Floodlight does not have");
  }

  private static void compare(Class<?> ours, Class<?> theirs, ClassLoader real, List<String> out)
      throws ClassNotFoundException {
    String n = ours.getName();
    if (ours.isInterface() != theirs.isInterface() || ours.isEnum() != theirs.isEnum()) {
      out.add(n + ": kind differs");
    }
    if (Modifier.isStatic(ours.getModifiers()) != Modifier.isStatic(theirs.getModifiers())) {
      out.add(n + ": static differs");
    }
    for (Class<?> sup : supertypes(ours)) {
      if (!Class.forName(sup.getName(), false, real).isAssignableFrom(theirs)) {
        out.add(n + ": not a " + sup.getName());
      }
    }
    for (Method m : ours.getDeclaredMethods()) {
      if (visible(m) && !m.isSynthetic() && !has(theirs, m)) {
        out.add(n + "." + m.getName() + signature(m) + ": missing or different");
      }
    }
    for (Constructor<?> c : ours.getDeclaredConstructors()) {
      if (Modifier.isPublic(c.getModifiers()) && !hasConstructor(theirs, c)) {
        out.add(n + ".<init>" + signature(c) + ": missing");
      }
    }
    for (Field f : ours.getDeclaredFields()) {
      if (Modifier.isPublic(f.getModifiers()) && !hasField(theirs, f)) {
        out.add(n + "." + f.getName() + ": missing or of another type");
      }
    }
    if (ours.isEnum()) {
      Set<String> theirConstants =
          Arrays.stream(theirs.getEnumConstants())
              .map(c -> ((Enum<?>) c).name())
              .collect(Collectors.toSet());
      for (Object c : ours.getEnumConstants()) {
        if (!theirConstants.contains(((Enum<?>) c).name())) {
          out.add(n + "." + c + ": no such constant");
        }
      }
    }
  }

  /** Supertypes to find in Floodlight: a project-only base counts as its interfaces. */
  private static List<Class<?>> supertypes(Class<?> c) {
    List<Class<?>> out = new ArrayList<>(Arrays.asList(c.getInterfaces()));
    Class<?> s = c.getSuperclass();
    if (s != null && s != Object.class && s != Enum.class) {
      if (PROJECT_ONLY.contains(s.getName())) {
        out.addAll(supertypes(s));
      } else {
        out.add(s);
      }
    }
    return out;
  }

  private static boolean visible(Executable e) {
    return Modifier.isPublic(e.getModifiers()) || Modifier.isProtected(e.getModifiers());
  }

  /** A method of that name, parameter types, return type and staticness, in c or a supertype. */
  private static boolean has(Class<?> c, Method m) {
    return hierarchy(c)
        .flatMap(k -> Arrays.stream(k.getDeclaredMethods()))
        .anyMatch(
            t ->
                t.getName().equals(m.getName())
                    && visible(t)
                    && signature(t).equals(signature(m))
                    && t.getReturnType().getName().equals(m.getReturnType().getName())
                    && Modifier.isStatic(t.getModifiers()) == Modifier.isStatic(m.getModifiers()));
  }

  private static boolean hasConstructor(Class<?> c, Constructor<?> ours) {
    return Arrays.stream(c.getConstructors()).anyMatch(t -> signature(t).equals(signature(ours)));
  }

  private static boolean hasField(Class<?> c, Field f) {
    try {
      return c.getField(f.getName()).getType().getName().equals(f.getType().getName());
    } catch (NoSuchFieldException e) {
      return false;
    }
  }

  private static Stream<Class<?>> hierarchy(Class<?> c) {
    List<Class<?>> all = new ArrayList<>();
    collect(c, all);
    return all.stream();
  }

  private static void collect(Class<?> c, List<Class<?>> all) {
    if (c == null || all.contains(c)) {
      return;
    }
    all.add(c);
    collect(c.getSuperclass(), all);
    for (Class<?> i : c.getInterfaces()) {
      collect(i, all);
    }
  }

  private static String signature(Executable e) {
    return Arrays.stream(e.getParameterTypes())
        .map(Class::getName)
        .collect(Collectors.joining(",", "(", ")"));
  }

  /** The stand-in's class names, from its compiled classes. */
  private static List<String> standInClasses() throws IOException {
    Path root = Path.of("target", "classes");
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(p -> p.toString().endsWith(".class"))
          .map(p -> root.relativize(p).toString())
          .map(s -> s.substring(0, s.length() - ".class".length()).replace('/', '.'))
          .filter(s -> !PROJECT_ONLY.contains(s))
          .sorted()
          .toList();
    }
  }
}
