package io.schedlab.engine.hypervisor;

import static io.schedlab.engine.hypervisor.HypervisorStatistics.CANDIDATES_SCANNED;
import static io.schedlab.engine.hypervisor.HypervisorStatistics.HANDLER_NANOS;
import static io.schedlab.engine.hypervisor.HypervisorStatistics.ON_SPIN_CALLS;
import static io.schedlab.engine.hypervisor.HypervisorStatistics.OVERCOMMIT_SCHEDULES;
import static io.schedlab.engine.hypervisor.HypervisorStatistics.PLE_EXITS;
import static io.schedlab.engine.hypervisor.HypervisorStatistics.UNDERCOMMIT_RETURNS;
import static io.schedlab.engine.hypervisor.HypervisorStatistics.YIELDS_ESRCH;
import static io.schedlab.engine.hypervisor.HypervisorStatistics.YIELDS_FAILED;
import static io.schedlab.engine.hypervisor.HypervisorStatistics.YIELDS_SUCCEEDED;
import static io.schedlab.engine.hypervisor.HypervisorStatistics.YIELDS_TRIED;

import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.policies.SchedulerContext;
import io.schedlab.engine.policies.YieldToResult;
import io.schedlab.engine.params.Params;
import java.util.Arrays;
import java.util.List;

/**
 * KVM: the host Linux scheduler (the policy) runs each vCPU as a host thread; this layer adds
 * pause-loop exiting. A vCPU spinning in its guest exits after its PLE window (arch/x86/kvm/vmx/vmx.c
 * handle_pause, which grows the window; vmx_sched_in shrinks it), and the handler runs
 * kvm_vcpu_on_spin (virt/kvm/kvm_main.c): two passes over the VM's other vCPUs starting after
 * last_boosted_vcpu, skipping those not preempted, preempted in user mode, or not eligible (a vCPU that
 * is itself in a spin loop is eligible every other time, dy_eligible), yield_to the first that accepts,
 * giving up after three -ESRCH. The exit and the handler take time on the spinning vCPU; then it
 * reschedules after a successful yield, or goes back to spinning. Variants: {@link PleHandler}.
 * Lock-holder preemption is not drawn at random: it happens when the host scheduler deschedules the
 * vCPU whose guest thread holds a lock.
 */
final class KvmLayer implements HypervisorLayer {
    /** kvm_vcpu_on_spin: give up after this many -ESRCH results ({@code int try = 3}). */
    static final int YIELD_TRIES = 3;

    private final HypervisorHost host;
    private final SchedulerContext ctx;
    private final KvmParameters p;
    private final HypervisorStatistics stats = new HypervisorStatistics();
    private final int iPle = HypervisorStatistics.index(PLE_EXITS);
    private final int iOnSpin = HypervisorStatistics.index(ON_SPIN_CALLS);
    private final int iUnder = HypervisorStatistics.index(UNDERCOMMIT_RETURNS);
    private final int iScanned = HypervisorStatistics.index(CANDIDATES_SCANNED);
    private final int iTried = HypervisorStatistics.index(YIELDS_TRIED);
    private final int iOk = HypervisorStatistics.index(YIELDS_SUCCEEDED);
    private final int iFailed = HypervisorStatistics.index(YIELDS_FAILED);
    private final int iEsrch = HypervisorStatistics.index(YIELDS_ESRCH);
    private final int iSched = HypervisorStatistics.index(OVERCOMMIT_SCHEDULES);
    private final int iNanos = HypervisorStatistics.index(HANDLER_NANOS);

    /** Per vCPU uid. */
    private State[] states = new State[64];
    /** kvm->last_boosted_vcpu per VM id. */
    private int[] lastBoosted = new int[16];

    /** What KVM keeps per vCPU. */
    private static final class State {
        long window;
        boolean spinning;
        boolean inHandler;
        /** vcpu->spin_loop.in_spin_loop: set by its own handler until it runs again after the handler's schedule. */
        boolean inSpinLoop;
        boolean dyEligible;
        /** vcpu->arch.preempted_in_kernel, recorded at sched-out. */
        boolean preemptedInKernel;
        /**
         * At sched-out it was inside a guest critical section (preempt_count not zero): holding or spinning for
         * a spinlock, or halted in the guest's idle loop, which runs with preemption disabled (kernel/sched/core.c
         * init_idle -> init_idle_preempt_count; arch/x86/include/asm/preempt.h: PREEMPT_DISABLED).
         */
        boolean inCriticalSection;
        /** It left its CPU by halting (blocked), not by preemption: vcpu->preempted stays false (kvm_sched_out). */
        boolean halted;
        /** A guest lock was handed to it while preempted (the pv-spinlock kick is pending). */
        boolean pendingKick;
        SchedulerContext.TimerHandle exitTimer;
        /** Its pause-loop exit as a timer action, made once (an arm per spin start and per switch-in). */
        Runnable pleExitAction;
    }

    private KvmLayer(HypervisorHost host, KvmParameters p) {
        this.host = host;
        this.ctx = host.context();
        this.p = p;
    }

    static KvmLayer create(Params policyParams, HypervisorHost host) {
        return new KvmLayer(host, new KvmParameters(policyParams));
    }

    private State state(Vcpu v) {
        if (v.uid >= states.length) {
            states = Arrays.copyOf(states, Math.max(v.uid + 1, states.length * 2));
        }
        State s = states[v.uid];
        if (s == null) {
            s = new State();
            s.window = p.windowCycles;
            states[v.uid] = s;
        }
        return s;
    }

    @Override
    public HypervisorStatistics statistics() {
        return stats;
    }

    @Override
    public void spinStarted(Vcpu v) {
        State s = state(v);
        s.spinning = true;
        if (v.state == VcpuState.RUNNING && !s.inHandler) {
            arm(v, s, ctx.now());
        }
    }

    @Override
    public void spinStopped(Vcpu v) {
        State s = state(v);
        s.spinning = false;
        cancel(s);
    }

    /** kvm_sched_in: vmx_sched_in shrinks the PLE window; a return from the handler's schedule() ends the spin loop. */
    @Override
    public void vcpuStarted(Vcpu v) {
        State s = state(v);
        s.window = shrink(s.window);
        s.inSpinLoop = false;
        s.pendingKick = false;
        s.inHandler = false;
        if (s.spinning) {
            arm(v, s, ctx.now());
        }
    }

    /**
     * kvm_sched_out: remember whether it was preempted (still runnable) or halted, whether in guest kernel mode
     * (kvm_arch_vcpu_put), and whether inside a critical section (what the guest's pv preempt_count shows).
     */
    @Override
    public void vcpuStopped(Vcpu v) {
        State s = state(v);
        cancel(s);
        s.inHandler = false;
        s.halted = v.state != VcpuState.RUNNABLE;
        s.preemptedInKernel = host.inGuestKernel(v);
        s.inCriticalSection = s.halted || host.inCriticalSection(v);
    }

    @Override
    public void lockHandedToPreempted(Vcpu from, Vcpu to) {
        state(to).pendingKick = true;
    }

    private void cancel(State s) {
        if (s.exitTimer != null) {
            s.exitTimer.cancel();
            s.exitTimer = null;
        }
    }

    /** The next pause-loop exit, one PLE window of spinning from {@code from}; none when PLE is off (ple_gap 0). */
    private void arm(Vcpu v, State s, long from) {
        cancel(s);
        if (p.gapCycles == 0) {
            return;
        }
        long nanos = Math.max(1, (long) Math.ceil(s.window / p.cpuGhz));
        if (s.pleExitAction == null) {
            s.pleExitAction = () -> pleExit(v);
        }
        s.exitTimer = ctx.setTimer(from + nanos, s.pleExitAction);
    }

    /** __grow_ple_window. */
    private long grow(long window) {
        long base = p.windowCycles;
        if (p.windowGrow < 1) {
            return base;
        }
        long next = p.windowGrow < base ? window * p.windowGrow : window + p.windowGrow;
        return Math.min(Math.max(next, base), p.windowMax);
    }

    /** __shrink_ple_window. */
    private long shrink(long window) {
        long base = p.windowCycles;
        if (p.windowShrink < 1) {
            return base;
        }
        long next = p.windowShrink < base ? window / p.windowShrink : window - p.windowShrink;
        return Math.max(next, base);
    }

    /** handle_pause: grow the window, run the handler, charge its time to the spinner. */
    private void pleExit(Vcpu me) {
        State s = state(me);
        s.exitTimer = null;
        if (!ctx.isSpinning(me)) {
            return; // not running, or its thread got the lock as the window ended
        }
        stats.add(me.uid, iPle, 1);
        s.window = grow(s.window);
        long cost = p.vmExitNanos;
        boolean reschedule;
        int nrRunning = host.nrRunning(me.processor);
        if (p.handler.undercommitReturn() && nrRunning == 1) {
            stats.add(me.uid, iUnder, 1); // alone on its run queue: nothing to yield to
            reschedule = false;
        } else {
            long[] spent = {0};
            boolean yielded = onSpin(me, s, spent);
            cost += spent[0];
            reschedule = yielded;
            if (!yielded && p.handler.overcommitSchedule() && nrRunning > 1) {
                stats.add(me.uid, iSched, 1);
                reschedule = true;
            }
        }
        stats.add(me.uid, iNanos, cost);
        s.inHandler = true;
        boolean schedule = reschedule;
        ctx.setTimer(ctx.now() + cost, () -> handlerDone(me, schedule));
    }

    /** The handler's time is over: schedule() if it yielded (or the variant says so), else back to spinning. */
    private void handlerDone(Vcpu me, boolean schedule) {
        State s = state(me);
        if (!s.inHandler || me.state != VcpuState.RUNNING) {
            return; // descheduled meanwhile: kvm_sched_in re-arms
        }
        s.inHandler = false;
        if (schedule) {
            host.reschedule(me.processor, false);
            if (me.state != VcpuState.RUNNING) {
                return; // switched away: kvm_sched_in re-arms when it runs again
            }
        }
        s.inSpinLoop = false;
        if (s.spinning) {
            arm(me, s, ctx.now());
        }
    }

    /** kvm_vcpu_on_spin: returns whether a yield_to succeeded; adds its time to {@code spent[0]}. */
    private boolean onSpin(Vcpu me, State s, long[] spent) {
        List<Vcpu> vcpus = me.vm.vcpus;
        int n = vcpus.size();
        if (n < 2) {
            return false;
        }
        stats.add(me.uid, iOnSpin, 1);
        s.inSpinLoop = true;
        int tries = YIELD_TRIES;
        boolean yielded = false;
        if (p.handler.queueHeadFirst()) {
            for (int i = 0; i < n && !yielded && tries > 0; i++) {
                Vcpu c = vcpus.get(i);
                if (c != me && state(c).pendingKick) {
                    int r = tryCandidate(me, c, spent);
                    yielded = r > 0;
                    tries -= r < 0 ? 1 : 0;
                    if (yielded) {
                        boosted(me, i);
                    }
                }
            }
        }
        int last = lastBoosted(me);
        for (int pass = 0; pass < 2 && !yielded && tries > 0; pass++) {
            int from = pass == 0 ? last + 1 : 0;
            int to = pass == 0 ? n : last + 1;
            for (int i = from; i < to; i++) {
                Vcpu c = vcpus.get(i);
                if (c == me) {
                    continue;
                }
                int r = tryCandidate(me, c, spent);
                if (r > 0) {
                    boosted(me, i);
                    yielded = true;
                    break;
                }
                if (r < 0 && --tries == 0) {
                    break;
                }
            }
        }
        if (!yielded) {
            s.inSpinLoop = false;
        }
        s.dyEligible = false; // kvm_vcpu_set_dy_eligible(me, false)
        return yielded;
    }

    /** One candidate: 1 yielded, 0 skipped or yield_to returned 0, -1 yield_to returned -ESRCH. */
    private int tryCandidate(Vcpu me, Vcpu c, long[] spent) {
        stats.add(me.uid, iScanned, 1);
        spent[0] += p.candidateNanos;
        State cs = state(c);
        if (c.state != VcpuState.RUNNABLE) {
            return 0; // not preempted: running, or halted
        }
        boolean interrupt = p.handler.interruptBoost() && cs.pendingKick;
        // From commit d73eb57b80b (ipi-boost and later) a vCPU woken from halt is a candidate (vcpu->ready) and the
        // kernel-mode filter applies to preempted vCPUs only (READ_ONCE(vcpu->preempted) && yield_to_kernel_mode).
        boolean preempted = !(p.handler.interruptBoost() && cs.halted);
        if (p.yieldToKernelMode && preempted && !cs.preemptedInKernel && !interrupt) {
            return 0; // preempted in user mode
        }
        if (p.handler.criticalSectionsOnly() && !cs.inCriticalSection) {
            return 0; // kvm_arch_boost_candidate: preemptible, interrupts on
        }
        if (!eligible(cs)) {
            return 0;
        }
        stats.add(me.uid, iTried, 1);
        spent[0] += p.yieldToNanos;
        YieldToResult r = host.yieldTo(me, c);
        if (r == YieldToResult.YIELDED) {
            stats.add(me.uid, iOk, 1);
            return 1;
        }
        stats.add(me.uid, iFailed, 1);
        if (r == YieldToResult.ESRCH) {
            stats.add(me.uid, iEsrch, 1);
            return -1;
        }
        return 0;
    }

    /** kvm_vcpu_eligible_for_directed_yield: a vCPU in a spin loop is eligible every other time. */
    private static boolean eligible(State cs) {
        boolean eligible = !cs.inSpinLoop || cs.dyEligible;
        if (cs.inSpinLoop) {
            cs.dyEligible = !cs.dyEligible;
        }
        return eligible;
    }

    private int lastBoosted(Vcpu me) {
        int id = me.vm.id;
        if (id >= lastBoosted.length) {
            lastBoosted = Arrays.copyOf(lastBoosted, Math.max(id + 1, lastBoosted.length * 2));
        }
        return lastBoosted[id];
    }

    private void boosted(Vcpu me, int index) {
        lastBoosted(me);
        lastBoosted[me.vm.id] = index;
    }
}
