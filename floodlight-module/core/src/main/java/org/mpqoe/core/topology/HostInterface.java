package org.mpqoe.core.topology;

/**
 * One network interface of a host and the access link that attaches it to a switch.
 *
 * @param ip IPv4 address in dotted form
 * @param mac MAC address, lower-case colon form
 * @param attachment the first-hop switch
 * @param port the port of the access link on {@code attachment}
 * @param capacityMbps access link capacity, or {@code Double.NaN} when not shaped
 * @param delayMs access link one-way delay
 * @param lossPct access link loss
 */
public record HostInterface(
    String ip,
    String mac,
    SwitchNode attachment,
    int port,
    double capacityMbps,
    double delayMs,
    double lossPct) {}
