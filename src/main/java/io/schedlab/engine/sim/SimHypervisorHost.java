package io.schedlab.engine.sim;

import io.schedlab.engine.hypervisor.HypervisorHost;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.policies.SchedulerContext;
import io.schedlab.engine.policies.YieldToResult;

/** The simulator as the hypervisor layer sees it: every scheduling action goes through the schedule path. */
final class SimHypervisorHost implements HypervisorHost {
    private final Simulator sim;

    SimHypervisorHost(Simulator sim) {
        this.sim = sim;
    }

    @Override
    public SchedulerContext context() {
        return sim.ctx();
    }

    @Override
    public void reschedule(int pcpu, boolean yielded) {
        sim.path().schedule(pcpu, yielded);
    }

    @Override
    public void yield(Vcpu v) {
        sim.path().yield(v);
    }

    @Override
    public YieldToResult yieldTo(Vcpu from, Vcpu to) {
        return sim.path().yieldTo(from, to);
    }

    @Override
    public int nrRunning(int pcpu) {
        return sim.path().nrRunning(pcpu);
    }

    @Override
    public boolean inGuestKernel(Vcpu v) {
        VcpuRun vr = sim.tables().vcpu(v.uid);
        GuestThreadRun th = vr.thread;
        return TlbShootdowns.pending(vr) || th != null && th.where == GuestThreadRun.ON_VCPU && v.state != VcpuState.OFFLINE
                && (th.locksHeld > 0 || th.mode == GuestThreadRun.SPIN
                        || th.mode == GuestThreadRun.COMPUTE && th.kernel);
    }

    @Override
    public boolean inCriticalSection(Vcpu v) {
        VcpuRun vr = sim.tables().vcpu(v.uid);
        GuestThreadRun th = vr.thread;
        return TlbShootdowns.pending(vr) || th != null && th.where == GuestThreadRun.ON_VCPU && v.state != VcpuState.OFFLINE
                && (th.locksHeld > 0 || th.mode == GuestThreadRun.SPIN);
    }
}
