/**
 * Declarations of the Restlet 2.3 types (bundled in floodlight.jar) that the adapter's REST
 * resource uses, written for this project so that it compiles without Floodlight. Nothing here
 * serves a request: every method that would needs Restlet and throws; the resource's tests run only
 * against floodlight.jar (docs/floodlight.md).
 */
package org.restlet;
