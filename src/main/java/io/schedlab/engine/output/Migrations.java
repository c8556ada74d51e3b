package io.schedlab.engine.output;

/** Migration counts by distance: SMT sibling on the same core, another core of the same socket, another socket. */
public record Migrations(long total, long sameCore, long sameSocket, long crossSocket) {
}
