package io.schedlab.engine.workloads;

/** A guest thread's program: asked for its next phase each time the previous one ends. */
@FunctionalInterface
public interface GuestThread {

    /** The phase that starts at {@code now}; the first call comes at thread start. */
    Phase next(long now);

    /**
     * True when each wake-up of this thread starts a new process (make reaping a job and forking the next):
     * the guest kernel then places it by fork balancing, on the first idle vCPU after the one it last ran on,
     * instead of waking it where it last ran.
     */
    default boolean forksOnWake() {
        return false;
    }
}
