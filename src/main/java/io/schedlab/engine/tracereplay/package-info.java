/**
 * Recorded scheduling traces in: Linux {@code perf script} / {@code trace-cmd report} text of
 * {@code sched_switch} and {@code sched_wakeup}, and Xen {@code xentrace} binaries of the scheduler class,
 * read into per-thread (per-vCPU) run and sleep bursts and the recorded run-slice and wait samples; an
 * experiment built from them ({@code trace} workloads), and the Kolmogorov-Smirnov distance between the
 * recorded samples and those of a simulated run's own trace. Plain Java, deterministic, no Spring.
 */
package io.schedlab.engine.tracereplay;
