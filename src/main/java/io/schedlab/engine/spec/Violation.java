package io.schedlab.engine.spec;

/** One validation failure: a JSON pointer into the submitted document (RFC 6901) and a message. */
public record Violation(String pointer, String message) {
}
