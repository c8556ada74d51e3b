package io.schedlab.engine.workloads;

/** A guest thread's program: asked for its next phase each time the previous one ends. */
@FunctionalInterface
public interface GuestThread {

    /** The phase that starts at {@code now}; the first call comes at thread start. */
    Phase next(long now);
}
