package net.floodlightcontroller.core.module;

/** A service one module offers the others. */
public interface IFloodlightService {}
