package org.restlet.data;

/** One HTTP header. */
public class Header {}
