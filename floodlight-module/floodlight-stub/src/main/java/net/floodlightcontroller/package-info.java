/**
 * Declarations of the Floodlight types mpqoe's adapter uses, with Floodlight master's signatures,
 * written for this project: interfaces as Floodlight declares the methods the adapter calls or
 * implements; the few value classes the adapter's tests build (links, port rates, the module
 * context) with behaviour of their own. Compile-time and test-time only: floodlight.jar replaces
 * all of it.
 */
package net.floodlightcontroller;
