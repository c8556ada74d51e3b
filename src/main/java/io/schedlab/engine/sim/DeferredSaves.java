package io.schedlab.engine.sim;

/**
 * context_saved steps still to run at the end of a switch (policies that report their lock work run
 * context_saved as its own step, queued for the lock), and the schedule() requests that reached a pCPU
 * meanwhile, which run right after it (Xen: the pCPU is still inside context_saved of its last switch).
 */
final class DeferredSaves {
    /** Per pCPU: the vCPU whose context_saved is pending, or null. */
    private final VcpuRun[] pending;
    private final boolean[] rescheduleAfter;

    DeferredSaves(int pcpus) {
        pending = new VcpuRun[pcpus];
        rescheduleAfter = new boolean[pcpus];
    }

    /** True while p's last switch still has to run context_saved. */
    boolean isPending(int p) {
        return pending[p] != null;
    }

    /** context_saved of {@code prev} runs later on p (its own event). */
    void defer(int p, VcpuRun prev) {
        pending[p] = prev;
    }

    /** The pending vCPU of p, now no longer pending. */
    VcpuRun take(int p) {
        VcpuRun prev = pending[p];
        pending[p] = null;
        return prev;
    }

    /** A schedule() request arrived on p while its context_saved is pending. */
    void requestReschedule(int p) {
        rescheduleAfter[p] = true;
    }

    boolean rescheduleRequested(int p) {
        return rescheduleAfter[p];
    }

    /** True (once) when a schedule() request waited for p's context_saved. */
    boolean takeReschedule(int p) {
        boolean wanted = rescheduleAfter[p];
        rescheduleAfter[p] = false;
        return wanted;
    }
}
