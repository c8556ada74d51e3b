package io.schedlab.engine.spec;

/** Optional xentrace-style event trace: off by default, at most {@code maxEvents} records, streamed to a sink. */
public record TraceSpec(Boolean enabled, Long maxEvents) {
}
