package io.schedlab.engine.workloads;

/** One event of an rt-app phase that the model runs (rt-app doc/tutorial.txt, "events"). */
interface RtAppEvent {

    /** {@code run}: a fixed amount of work (rt-app's calibrated loop), here CPU time at nominal speed. */
    record Run(long nanos) implements RtAppEvent {
    }

    /** {@code runtime}: busy until this much wall-clock time has passed since the event began. */
    record Runtime(long nanos) implements RtAppEvent {
    }

    /** {@code sleep}: a relative sleep. */
    record Sleep(long nanos) implements RtAppEvent {
    }

    /** {@code timer}: wait for the next absolute expiry of timer {@code slot} ({@code unique}: one per thread). */
    record Timer(int slot, boolean unique, long periodNanos, boolean relative) implements RtAppEvent {
    }

    /** {@code lock}: take the named mutex (id = order of first mention in the document). */
    record Lock(int mutex) implements RtAppEvent {
    }

    /** {@code unlock}: release the named mutex. */
    record Unlock(int mutex) implements RtAppEvent {
    }
}
