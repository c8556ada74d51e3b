package io.schedlab.engine.policies;

import java.util.function.IntConsumer;

/**
 * A policy that schedules the sibling pCPUs of a core or socket together (Xen core scheduling,
 * xen/common/sched/core.c, 4.13+): the simulator asks it for the rendezvous cost of each decision
 * and tells it how long each pCPU idled, so it can report the idle time forced by the granularity.
 */
public interface CoreScheduled {

    /** The active core scheduler behind {@code policy}, or null (cpu granularity or one pCPU per resource). */
    static CoreScheduled of(SchedulerPolicy policy) {
        return policy instanceof CoreScheduled c && c.active() ? c : null;
    }

    /** False when every scheduling resource is one pCPU (then the policy behaves exactly as its inner one). */
    boolean active();

    /**
     * The simulator's hook to run {@code schedule()} on a pCPU at the current instant (the siblings
     * joining a rendezvous) and the wait each pCPU of a rendezvous pays ({@code CostModel.rendezvousNanos}).
     */
    void attach(IntConsumer scheduleNow, long rendezvousNanos);

    /** Rendezvous wait to charge to the decision just taken on {@code pcpu} (read once, then 0). */
    long takeRendezvousNanos(int pcpu);

    /** {@code pcpu} was idle for {@code nanos} ns, an interval that began when it last went idle. */
    void idleEnded(int pcpu, long nanos);

    /** {@code pcpu} has just gone idle (after its switch). */
    void idleStarted(int pcpu);

    /** Idle time of {@code pcpu} while its resource ran a unit with no runnable vCPU for it. */
    long forcedIdleNanos(int pcpu);

    /** {@code core} or {@code socket}. */
    String granularity();

    /** pCPUs per scheduling resource (> 1). */
    int cpusPerResource();

    /** Rendezvous run (one per decision on a resource). */
    long rendezvousCount();

    /** Rendezvous wait charged, summed over pCPUs. */
    long rendezvousNanos();
}
