/** The result document: records only, serialized to JSON as is, deterministic except {@code summary.wallNanos}. */
package io.schedlab.engine.output;
