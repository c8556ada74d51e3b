package io.schedlab.engine.workloads;

/** A workload that never finishes: it runs until the experiment's duration ends (background load, I/O servers). */
interface EndlessWorkload extends Workload {

    @Override
    default boolean isFinite() {
        return false;
    }

    @Override
    default boolean isComplete() {
        return false;
    }
}
