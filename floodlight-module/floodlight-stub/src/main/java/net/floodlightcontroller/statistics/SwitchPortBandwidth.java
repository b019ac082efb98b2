package net.floodlightcontroller.statistics;

import java.util.Objects;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U64;

/**
 * The latest rates of one port (bits per second over the last polling period), stamped with {@link
 * System#nanoTime()} when made.
 */
public class SwitchPortBandwidth {
  private final DatapathId id;
  private final OFPort port;
  private final U64 speed;
  private final U64 rx;
  private final U64 tx;
  private final U64 rxValue;
  private final U64 txValue;
  private final long startNanos = System.nanoTime();

  private SwitchPortBandwidth(
      DatapathId d, OFPort p, U64 s, U64 rx, U64 tx, U64 rxValue, U64 txValue) {
    this.id = Objects.requireNonNull(d, "datapath id");
    this.port = Objects.requireNonNull(p, "port");
    this.speed = Objects.requireNonNull(s, "link speed");
    this.rx = Objects.requireNonNull(rx, "rx rate");
    this.tx = Objects.requireNonNull(tx, "tx rate");
    this.rxValue = Objects.requireNonNull(rxValue, "rx counter");
    this.txValue = Objects.requireNonNull(txValue, "tx counter");
  }

  public static SwitchPortBandwidth of(
      DatapathId d, OFPort p, U64 s, U64 rx, U64 tx, U64 rxValue, U64 txValue) {
    return new SwitchPortBandwidth(d, p, s, rx, tx, rxValue, txValue);
  }

  public DatapathId getSwitchId() {
    return id;
  }

  public OFPort getSwitchPort() {
    return port;
  }

  public U64 getLinkSpeedBitsPerSec() {
    return speed;
  }

  public U64 getBitsPerSecondRx() {
    return rx;
  }

  public U64 getBitsPerSecondTx() {
    return tx;
  }

  public U64 getPriorByteValueRx() {
    return rxValue;
  }

  public U64 getPriorByteValueTx() {
    return txValue;
  }

  public long getStartTime_ns() {
    return startNanos;
  }
}
