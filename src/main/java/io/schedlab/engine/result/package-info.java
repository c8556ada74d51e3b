/** The result document: records only, serialized to JSON as is, deterministic except {@code summary.wallSeconds}. */
package io.schedlab.engine.result;
