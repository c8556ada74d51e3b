package io.schedlab.engine.workloads;

import io.schedlab.engine.workloads.RtAppTask.RtAppPhase;

/**
 * One thread of an rt-app task, running its events in order as rt-app.c thread_body and run_event do: each phase
 * its loop count of times, the phase list its task loop count of times (-1 = forever), after the task's delay. The
 * thread stops at an event boundary once the document's global duration has passed, but not while it holds a
 * mutex (rt-app.c run: it goes on until its locks are released).
 */
final class RtAppThread implements GuestThread {
    /** rt-app's runtime event checks the clock after each loadwait(32) (rt-app.c run_event, case rtapp_runtime). */
    static final long RUNTIME_CHECK_NANOS = 32_000;

    private final RtAppTask task;
    private final RtAppTimer[] sharedTimers;
    private final RtAppTimer[] uniqueTimers;
    private final RtAppThreadStats stats;
    private final RtAppWorkload workload;
    private final long stopAt;

    private boolean started;
    private boolean done;
    private boolean exited;
    private long first;
    private int phase;
    private int event;
    private long phaseLoop;
    private long taskLoop;
    private int held;
    /** Expiry of the timer the thread sleeps until, or -1. */
    private long timerExpiry = -1;
    /** When the runtime event under way ends (wall clock), or -1. */
    private long runtimeEnd = -1;

    RtAppThread(RtAppTask task, RtAppTimer[] sharedTimers, RtAppThreadStats stats, RtAppWorkload workload,
            long stopAt) {
        this.task = task;
        this.sharedTimers = sharedTimers;
        this.uniqueTimers = new RtAppTimer[task.uniqueTimers()];
        this.stats = stats;
        this.workload = workload;
        this.stopAt = stopAt;
    }

    @Override
    public Phase next(long now) {
        if (!started) {
            started = true;
            first = now + task.delayNanos();
            done = task.loop() == 0;
            if (!done && task.delayNanos() > 0) {
                return new Phase.Sleep(task.delayNanos());
            }
        }
        if (timerExpiry >= 0) {
            stats.woke(now - timerExpiry);
            workload.lateness(now - timerExpiry);
            stats.activation(now);
            timerExpiry = -1;
        }
        if (runtimeEnd >= 0) {
            if (runtimeEnd > now) {
                return runtimeChunk(runtimeEnd - now);
            }
            runtimeEnd = -1;
        }
        while (true) {
            if (done || now >= stopAt && held == 0) {
                done = true;
                return exit(now);
            }
            RtAppEvent e = task.phases().get(phase).events().get(event);
            step();
            Phase p = begin(e, now);
            if (p != null) {
                return p;
            }
        }
    }

    private Phase exit(long now) {
        if (!exited) {
            exited = true;
            workload.threadExited(now);
        }
        return Phase.EXIT;
    }

    /** Moves past the current event: end of phase iteration, of phase, of the phase list. */
    private void step() {
        RtAppPhase current = task.phases().get(phase);
        if (++event < current.events().size()) {
            return;
        }
        event = 0;
        stats.phaseLoopDone();
        if (++phaseLoop != current.loop()) {
            return;
        }
        phaseLoop = 0;
        if (++phase < task.phases().size()) {
            return;
        }
        phase = 0;
        if (++taskLoop == task.loop()) {
            done = true;
        }
    }

    /** The phase that carries out {@code e} now, or null when it takes no time. */
    private Phase begin(RtAppEvent e, long now) {
        if (e instanceof RtAppEvent.Run r) {
            return r.nanos() > 0 ? new Phase.Compute(r.nanos(), false) : null;
        }
        if (e instanceof RtAppEvent.Runtime r) {
            if (r.nanos() == 0) {
                return null;
            }
            runtimeEnd = now + r.nanos();
            return runtimeChunk(r.nanos());
        }
        if (e instanceof RtAppEvent.Sleep s) {
            return s.nanos() > 0 ? new Phase.Sleep(s.nanos()) : null;
        }
        if (e instanceof RtAppEvent.Timer t) {
            return timer(t, now);
        }
        if (e instanceof RtAppEvent.Lock l) {
            held++;
            return new Phase.MutexLock(l.mutex());
        }
        if (e instanceof RtAppEvent.Unlock u) {
            held--;
            return new Phase.MutexUnlock(u.mutex());
        }
        throw new IllegalStateException("unresolved rt-app event " + e);
    }

    /**
     * Busy until the wall-clock end: work in halves of the time left, so a preempted thread stops soon after the
     * end as rt-app's clock checks make it; the last 64 us in one piece (exact when nothing preempts it).
     */
    private static Phase runtimeChunk(long left) {
        return new Phase.Compute(left <= 2 * RUNTIME_CHECK_NANOS ? left : left / 2, false);
    }

    private Phase timer(RtAppEvent.Timer t, long now) {
        RtAppTimer[] timers = t.unique() ? uniqueTimers : sharedTimers;
        if (timers[t.slot()] == null) {
            timers[t.slot()] = new RtAppTimer(t.relative());
        }
        RtAppTimer timer = timers[t.slot()];
        long expiry = timer.advance(first, t.periodNanos());
        if (now < expiry) {
            timerExpiry = expiry;
            return new Phase.Sleep(expiry - now);
        }
        timer.missed(now);
        stats.missed();
        workload.missed();
        stats.activation(now);
        return null;
    }
}
