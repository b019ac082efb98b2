package net.floodlightcontroller.threadpool;

import java.util.concurrent.ScheduledExecutorService;
import net.floodlightcontroller.core.module.IFloodlightService;

/** Floodlight's shared scheduler. */
public interface IThreadPoolService extends IFloodlightService {
  ScheduledExecutorService getScheduledExecutor();
}
