package io.schedlab.engine.hypervisor;

import static io.schedlab.engine.hypervisor.HypervisorStatistics.PLE_EXITS;

import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.model.Vm;
import io.schedlab.engine.policies.SchedulerContext;
import io.schedlab.engine.params.Params;
import java.util.Arrays;

/**
 * Xen: scheduling happens on the simulator's schedule path (xen/common/sched/core.c). The one VM exit
 * modelled is pause-loop exiting of HVM guests whose VM sets {@link XenParameters#PLE_WINDOW}: a vCPU
 * spinning on a guest lock for that window exits, and vmx_vmexit_handler (xen/arch/x86/hvm/vmx/vmx.c,
 * EXIT_REASON_PAUSE_INSTRUCTION) calls vcpu_yield (core.c): the policy's yield hook under the
 * scheduler lock (credit csched_unit_yield, credit2 csched2_unit_yield), then SCHEDULE_SOFTIRQ on the
 * pCPU, which here reschedules it at once. Xen's window is fixed (no grow or shrink as in KVM). The exit's
 * own time is not charged; the decision and switch are, by the schedule path.
 */
final class XenLayer implements HypervisorLayer {
    private final HypervisorHost host;
    private final SchedulerContext ctx;
    private final HypervisorStatistics stats = new HypervisorStatistics(PLE_EXITS);
    private final int iPle = stats.indexOf(PLE_EXITS);
    /** Per vCPU uid: its guest thread spins and its VM's window is > 0 (so runs without exits check one flag). */
    private boolean[] exiting = new boolean[64];
    /** Pending pause-loop exit per vCPU uid, or null. */
    private SchedulerContext.TimerHandle[] exitTimers = new SchedulerContext.TimerHandle[64];
    /** Per VM id: the parameters the window was last read from, and that window (set-sched-params replaces them). */
    private Params[] windowFrom = new Params[16];
    private long[] window = new long[16];
    private boolean anyExit;

    XenLayer(HypervisorHost host) {
        this.host = host;
        this.ctx = host.context();
    }

    /** Run-level and per-vCPU pause-loop exits; null when no guest exited (PV guests, or no spinning). */
    @Override
    public HypervisorStatistics statistics() {
        return anyExit ? stats : null;
    }

    @Override
    public void spinStarted(Vcpu v) {
        if (window(v.vm) == 0) {
            return;
        }
        grow(v.uid);
        exiting[v.uid] = true;
        if (v.state == VcpuState.RUNNING) {
            arm(v);
        }
    }

    @Override
    public void spinStopped(Vcpu v) {
        if (v.uid < exiting.length && exiting[v.uid]) {
            exiting[v.uid] = false;
            cancel(v);
        }
    }

    @Override
    public void vcpuStarted(Vcpu v) {
        if (v.uid < exiting.length && exiting[v.uid]) {
            arm(v);
        }
    }

    @Override
    public void vcpuStopped(Vcpu v) {
        if (v.uid < exiting.length && exiting[v.uid]) {
            cancel(v);
        }
    }

    /** The VM's window now (0: no exits). */
    private long window(Vm vm) {
        Params p = ctx.schedParams(vm);
        int id = vm.id;
        if (id >= windowFrom.length) {
            windowFrom = Arrays.copyOf(windowFrom, Math.max(id + 1, windowFrom.length * 2));
            window = Arrays.copyOf(window, windowFrom.length);
        }
        if (windowFrom[id] != p) {
            windowFrom[id] = p;
            window[id] = XenParameters.window(p);
        }
        return window[id];
    }

    private void grow(int uid) {
        if (uid >= exiting.length) {
            int n = Math.max(uid + 1, exiting.length * 2);
            exiting = Arrays.copyOf(exiting, n);
            exitTimers = Arrays.copyOf(exitTimers, n);
        }
    }

    /** The next exit, one window of spinning from now; none when the VM's window is 0. */
    private void arm(Vcpu v) {
        long w = window(v.vm);
        cancel(v);
        if (w > 0) {
            exitTimers[v.uid] = ctx.setTimer(ctx.now() + w, () -> pauseLoopExit(v));
        }
    }

    private void cancel(Vcpu v) {
        if (exitTimers[v.uid] != null) {
            exitTimers[v.uid].cancel();
            exitTimers[v.uid] = null;
        }
    }

    /** EXIT_REASON_PAUSE_INSTRUCTION: vcpu_yield, then schedule() on v's pCPU; still spinning there, arm again. */
    private void pauseLoopExit(Vcpu v) {
        exitTimers[v.uid] = null;
        if (!ctx.isSpinning(v)) {
            return;
        }
        anyExit = true;
        stats.add(v.uid, iPle, 1);
        host.yield(v);
        if (ctx.isSpinning(v) && exitTimers[v.uid] == null) {
            arm(v);
        }
    }
}
