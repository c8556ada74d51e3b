/** Run metrics with fixed memory: HdrHistogram latency recorders and the bounded, streamed trace. */
package io.schedlab.engine.recording;
