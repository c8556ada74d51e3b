package io.schedlab.engine.sim;

import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.policies.SchedulerContext;
import java.util.ArrayDeque;

/**
 * Synchronous TLB-shootdown IPIs between the vCPUs of one VM (Linux 5.x arch/x86/mm/tlb.c flush_tlb_mm_range ->
 * flush_tlb_multi -> kernel/smp.c smp_call_function_many_cond with wait). The sender, preemption disabled, sends a
 * flush IPI to every other vCPU of its VM that runs a thread (idle vCPUs are in lazy TLB mode: tlb_is_not_lazy
 * leaves them out) and is not preempted (arch/x86/kernel/kvm.c kvm_flush_tlb_multi under KVM_FEATURE_PV_TLB_FLUSH
 * drops a vCPU whose steal-time record says preempted, and the host flushes it at its next entry); then it spins
 * in csd_lock_wait until every target has run the handler. A target runs the handler (interrupts off,
 * sysvec_call_function) for the cost model's IPI latency of its own running time; the host may preempt it
 * before it is done, and the sender then spins until the target runs again, unless the pause-loop handler
 * yields to it (a target with an interrupt pending or in progress is a candidate, KVM commit d73eb57b80b). The
 * handler's time is not taken from the target's thread (an interruption of about a microsecond).
 */
final class TlbShootdowns {
    private final Simulator sim;

    /** One shootdown: its sender (the thread slot and its version) and how many targets have not yet acked. */
    private static final class Shootdown {
        final GuestThreadRun sender;
        final int version;
        int waiting;

        Shootdown(GuestThreadRun sender) {
            this.sender = sender;
            this.version = sender.version;
        }
    }

    /** What one target vCPU has queued: flush requests in order, the head's handler time left, its timer. */
    static final class Pending {
        final ArrayDeque<Shootdown> queue = new ArrayDeque<>();
        long left;
        long armedFrom;
        SchedulerContext.TimerHandle timer;
    }

    TlbShootdowns(Simulator sim) {
        this.sim = sim;
    }

    /** Whether {@code vr} has a flush IPI delivered and not yet handled (it is in, or about to enter, the handler). */
    static boolean pending(VcpuRun vr) {
        return vr.flushes != null && !vr.flushes.queue.isEmpty();
    }

    /**
     * {@code th} on its vCPU starts a shootdown; returns true when it waits (the thread spins until the last
     * target acks), false when no vCPU needed an IPI.
     */
    boolean send(GuestThreadRun th) {
        Shootdown sd = new Shootdown(th);
        for (VcpuRun vr : th.vm.vcpus) {
            if (vr != th.on && vr.thread != null && vr.v.state == VcpuState.RUNNING) {
                sd.waiting++;
                enqueue(vr, sd);
            }
        }
        return sd.waiting > 0;
    }

    private void enqueue(VcpuRun vr, Shootdown sd) {
        if (vr.flushes == null) {
            vr.flushes = new Pending();
        }
        Pending p = vr.flushes;
        p.queue.addLast(sd);
        if (p.queue.size() == 1) {
            p.left = handlerNanos();
            arm(vr, Math.max(sim.now(), vr.runStart));
        }
    }

    /** The IPI's delivery and handler, in the target's running time: the cost model's IPI latency. */
    private long handlerNanos() {
        return Math.max(1, sim.costs().ipiLatencyNanos());
    }

    private void arm(VcpuRun vr, long from) {
        Pending p = vr.flushes;
        p.armedFrom = from;
        p.timer = sim.ctx().setTimer(from + p.left, () -> handled(vr));
    }

    /** The head request's handler is done on {@code vr}: ack it, start the next. */
    private void handled(VcpuRun vr) {
        Pending p = vr.flushes;
        p.timer = null;
        Shootdown sd = p.queue.pollFirst();
        if (sd != null) {
            ack(sd);
        }
        if (!p.queue.isEmpty()) {
            p.left = handlerNanos();
            if (vr.v.state == VcpuState.RUNNING) {
                arm(vr, Math.max(sim.now(), vr.runStart));
            }
        }
    }

    /** csd_unlock: one target less; the last lets the sender go on. */
    private void ack(Shootdown sd) {
        if (--sd.waiting > 0) {
            return;
        }
        GuestThreadRun th = sd.sender;
        if (th.version != sd.version || th.where != GuestThreadRun.ON_VCPU || th.mode != GuestThreadRun.SPIN) {
            return; // its VM was shut down meanwhile
        }
        sim.guest().shootdownDone(th);
    }

    /**
     * {@code vr} left its pCPU at {@code at}: a preempted target keeps its pending handler for its next run; one
     * that halted ran it before the HLT (interrupts are taken before the vCPU blocks).
     */
    void stopped(VcpuRun vr, long at) {
        if (!pending(vr)) {
            return;
        }
        Pending p = vr.flushes;
        if (p.timer != null) {
            p.timer.cancel();
            p.timer = null;
            p.left = Math.max(1, p.left - Math.max(0, at - p.armedFrom));
        }
        if (vr.v.state != VcpuState.RUNNABLE) {
            p.timer = sim.ctx().setTimer(sim.now(), () -> drain(vr)); // after the switch that stopped it
        }
    }

    /** {@code vr} runs again from {@code t}: the pending handler goes on. */
    void started(VcpuRun vr, long t) {
        if (pending(vr) && vr.flushes.timer == null) {
            arm(vr, t);
        }
    }

    /** Every queued request of {@code vr} acked now. */
    private void drain(VcpuRun vr) {
        Pending p = vr.flushes;
        p.timer = null;
        while (!p.queue.isEmpty()) {
            ack(p.queue.pollFirst());
        }
    }

    /** VM shutdown: its vCPUs' pending requests go (their senders are gone too). */
    void dropAll(VmRun run) {
        for (VcpuRun vr : run.vcpus) {
            if (vr.flushes != null) {
                if (vr.flushes.timer != null) {
                    vr.flushes.timer.cancel();
                }
                vr.flushes = null;
            }
        }
    }
}
