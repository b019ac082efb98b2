package net.floodlightcontroller.core.util;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Names of the 12-bit application ids at the top of flow cookies. */
public class AppCookie {
  private static final Map<Long, String> NAMES = new ConcurrentHashMap<>();

  protected AppCookie() {}

  /** Registers {@code appName} for {@code application}; a second name for one id is refused. */
  public static void registerApp(long application, String appName) {
    if ((application & 0xfffL) != application) {
      throw new IllegalArgumentException("application id out of range: " + application);
    }
    String before = NAMES.putIfAbsent(application, appName);
    if (before != null && !before.equals(appName)) {
      throw new IllegalStateException("application id " + application + " is " + before);
    }
  }

  public static String getAppName(long application) {
    return NAMES.get(application);
  }
}
