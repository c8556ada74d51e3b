/**
 * Recorded traces in: a perf script, trace-cmd report or xentrace file becomes an editable experiment
 * (optionally submitted at once), and an experiment submitted from one keeps the recorded per-vCPU run
 * and wait samples, so its replay can be compared with the record.
 */
package io.schedlab.traceimport;
