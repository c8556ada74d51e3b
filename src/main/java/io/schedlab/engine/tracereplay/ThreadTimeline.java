package io.schedlab.engine.tracereplay;

/**
 * One thread's (or vCPU's) states through a trace, turned into what a {@code trace} workload replays and
 * what is compared after a replay: bursts of (CPU time, then sleep), the run slices (each stay on a CPU)
 * and the waits (runnable until it runs). A thread first seen mid-trace starts at the trace's start: when
 * its first event ends a run, it ran from the start; otherwise it slept until its first event. Open
 * intervals at the trace's end close there (a last run as CPU time, a last sleep as sleep); a run or wait
 * cut by the start or end of the trace, or by lost records, is not a sample.
 */
final class ThreadTimeline {

    private enum State { UNKNOWN, RUNNING, RUNNABLE, SLEEPING }

    final String group;
    final String name;
    private final long traceStart;
    private State state = State.UNKNOWN;
    private boolean seen;
    private long since;
    private long demand;
    private final LongSamples bursts = new LongSamples();
    private final LongSamples runs = new LongSamples();
    private final LongSamples waits = new LongSamples();

    ThreadTimeline(String group, String name, long traceStart) {
        this.group = group;
        this.name = name;
        this.traceStart = traceStart;
    }

    /** Whether the thread is on a CPU, as far as the trace has told. */
    boolean running() {
        return state == State.RUNNING;
    }

    /** Goes on a CPU at {@code t}; false when it was asleep with no wake-up seen (a missing event). */
    boolean runs(long t) {
        switch (state) {
            case RUNNABLE -> waits.add(t - since);
            case UNKNOWN -> firstSeenIdle(t);
            case SLEEPING -> {
                return false;
            }
            case RUNNING -> {
                return false;
            }
        }
        state = State.RUNNING;
        since = t;
        return true;
    }

    /** Leaves its CPU at {@code t}, runnable (preempted) or not (sleeps); false when it was not running. */
    boolean stops(long t, boolean stillRunnable) {
        if (state == State.RUNNING) {
            runs.add(t - since);
            demand += t - since;
        } else if (state == State.UNKNOWN && !seen) {
            seen = true;
            demand += t - traceStart; // on a CPU since before the trace began
        } else if (state == State.UNKNOWN) {
            firstSeenIdle(t); // after lost records: the gap is replayed as sleep
        } else {
            return false;
        }
        if (stillRunnable) {
            state = State.RUNNABLE;
        } else {
            state = State.SLEEPING;
        }
        since = t;
        return true;
    }

    /**
     * Leaves a CPU whose earlier history the trace does not hold, though a wake-up was seen first (a wake-up
     * of a thread already running): it ran since that wake-up, not a whole sample; false unless runnable.
     */
    boolean stopsFirstOnCpu(long t, boolean stillRunnable) {
        if (state != State.RUNNABLE) {
            return false;
        }
        demand += t - since;
        state = stillRunnable ? State.RUNNABLE : State.SLEEPING;
        since = t;
        return true;
    }

    /** Becomes runnable at {@code t}; a wake-up of a thread already runnable or running changes nothing. */
    void wakes(long t) {
        if (state == State.SLEEPING) {
            burst(demand, t - since);
            demand = 0;
        } else if (state == State.UNKNOWN) {
            firstSeenIdle(t);
        } else {
            return;
        }
        state = State.RUNNABLE;
        since = t;
    }

    /** Goes to sleep at {@code t} without having run (runnable, or unseen, to blocked); false when running. */
    boolean sleeps(long t) {
        if (state == State.RUNNING) {
            return false;
        }
        if (state == State.UNKNOWN) {
            firstSeenIdle(t);
        }
        if (state != State.SLEEPING) {
            state = State.SLEEPING;
            since = t;
        }
        return true;
    }

    /** Records were lost at {@code t}: what it does until its next event is not known (replayed as sleep). */
    void lost(long t) {
        switch (state) {
            case RUNNING -> burst(demand + (t - since), 0);
            case RUNNABLE -> burst(demand, 0);
            case SLEEPING -> burst(demand, t - since);
            case UNKNOWN -> {
                return;
            }
        }
        demand = 0;
        since = t;
        state = State.UNKNOWN;
    }

    /** The trace ends at {@code t}: open intervals close there (after lost records, as sleep). */
    void end(long t) {
        switch (state) {
            case RUNNING -> burst(demand + (t - since), 0);
            case RUNNABLE -> burst(demand, 0);
            case SLEEPING -> burst(demand, t - since);
            case UNKNOWN -> burst(demand, seen ? t - since : 0);
        }
        demand = 0;
    }

    private void firstSeenIdle(long t) {
        long gap = seen ? t - since : t - traceStart; // before its first event, or since lost records
        seen = true;
        burst(0, gap);
    }

    private void burst(long runNanos, long sleepNanos) {
        if (runNanos == 0 && sleepNanos == 0) {
            return;
        }
        if (runNanos == 0 && bursts.size() > 0) {
            bursts.addToLast(sleepNanos); // a sleep right after a sleep (lost records) lengthens it
            return;
        }
        bursts.add(runNanos);
        bursts.add(sleepNanos);
    }

    RecordedThread toRecord() {
        return new RecordedThread(group, name, bursts.toArray(), runs.toArray(), waits.toArray());
    }
}
