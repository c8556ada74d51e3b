package io.schedlab.engine.workloads;

import java.util.random.RandomGenerator;

/** What the engine offers a workload: its VM's size, a seeded random stream, and thread creation. */
public interface WorkloadEnv {

    /** Simulated time now, in nanoseconds. */
    long now();

    /** Number of vCPUs of the VM. */
    int vcpus();

    /** The workload's own deterministic random stream. */
    RandomGenerator random();

    /** The host's caches and their per-thread rates. */
    MemoryHierarchy memory();

    /** Start a guest thread now; it becomes runnable in the guest. */
    void spawn(GuestThread thread);
}
