package net.floodlightcontroller.core.internal;

import net.floodlightcontroller.core.module.ModuleStandIn;

/** Floodlight's controller module; here only as the key of its configuration parameters. */
public class FloodlightProvider extends ModuleStandIn {}
