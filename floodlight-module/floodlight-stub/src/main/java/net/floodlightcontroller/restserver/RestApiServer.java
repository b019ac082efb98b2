package net.floodlightcontroller.restserver;

import net.floodlightcontroller.core.module.ModuleStandIn;

/** Floodlight's REST server module; here only as the key of its configuration parameters. */
public class RestApiServer extends ModuleStandIn {}
