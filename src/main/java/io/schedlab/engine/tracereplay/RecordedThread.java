package io.schedlab.engine.tracereplay;

/**
 * One recorded thread (or vCPU) in nanoseconds.
 *
 * @param group     the VM it goes to (domain, comm, or one for all)
 * @param name      its name in the trace ({@code comm-pid}, {@code d1v0})
 * @param bursts    (CPU time, sleep) pairs in order, flattened: what a {@code trace} workload replays
 * @param runNanos  each stay on a CPU, from switch-in to switch-out
 * @param waitNanos each wait, from becoming runnable (wake-up or preemption) to running
 */
public record RecordedThread(String group, String name, long[] bursts, long[] runNanos, long[] waitNanos) {
}
