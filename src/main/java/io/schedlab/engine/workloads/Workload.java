package io.schedlab.engine.workloads;

/**
 * What one VM's guest runs: it creates guest threads (each a program of {@link Phase}s) and
 * reports in its own unit at the end. The engine's guest kernel time-shares the threads over
 * the VM's vCPUs; the workload never sees pCPUs or scheduler state.
 */
public interface Workload {

    /** Create the guest threads via {@link WorkloadEnv#spawn}. Called when the VM starts. */
    void start(WorkloadEnv env);

    /** True when the work is a fixed amount (the run can stop when every finite workload is done). */
    boolean isFinite();

    /** True once a finite workload has completed all its work. */
    boolean isComplete();

    /**
     * KiB its threads keep hot in the caches (the footprint a vCPU leaves in, and refills into, a
     * core's L2 and a socket's LLC); -1 = the cost model's {@code coldCacheWorkingSetKb}.
     */
    default long workingSetKb() {
        return -1;
    }

    /**
     * True when the guest kernel's spinlocks are test-and-set locks (x86 Linux before 2.6.25: whichever spinner
     * runs when the lock is freed takes it) instead of ticket locks (2.6.25+, commit 314cdbefd1fd: FIFO).
     */
    default boolean testAndSetSpinlocks() {
        return false;
    }

    /** The result in the workload's unit, given the run's elapsed simulated time since the VM started. */
    WorkloadReport report(long elapsedNanos);
}
