package io.schedlab.engine.policies.coresched;

import io.schedlab.engine.model.Pcpu;

/**
 * One scheduling resource (Xen's struct sched_resource with granularity > 1): its sibling pCPUs,
 * the unit it runs, the slice end of that unit, and the state of the current rendezvous.
 */
final class SchedResource {
    static final long NEVER = Long.MAX_VALUE;

    /** The resource as the inner policy sees it: one "pCPU" per resource; {@code current} is the unit. */
    final Pcpu pcpu;
    /** Host pCPU ids, by index in the resource (sched_res_idx); cpus[0] is the master (master_cpu). */
    final int[] cpus;
    SchedUnit current;
    /** When the current unit's time ends (the inner policy's answer), NEVER without a timer. */
    long sliceEnd = NEVER;
    /** The inner policy asked for a decision here (a tickle, the unit went to sleep). */
    boolean wanted;
    /** Siblings still to join the current rendezvous, and whether each one is due. */
    int pendingFollowers;
    final boolean[] follows;
    /** The unit switched away from, whose context_saved waits for the rendezvous to end. */
    SchedUnit savePending;

    SchedResource(Pcpu pcpu, int[] cpus) {
        this.pcpu = pcpu;
        this.cpus = cpus;
        this.follows = new boolean[cpus.length];
    }

    /** The resource runs {@code next} (null: no unit) from {@code now}: its own pCPU's current is the unit. */
    void run(SchedUnit next, long now) {
        current = next;
        pcpu.current = next == null ? null : next.vcpu;
        if (next != null) {
            next.startedOn(id(), now);
        }
    }

    int id() {
        return pcpu.id;
    }

    int master() {
        return cpus[0];
    }
}
