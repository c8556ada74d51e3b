package io.schedlab.engine.sim;

import io.schedlab.engine.hypervisor.HypervisorHost;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.policies.SchedulerContext;
import io.schedlab.engine.policies.SchedulerPolicy;

/** The simulator as the hypervisor layer sees it. */
final class SimHypervisorHost implements HypervisorHost {
    private final Simulator sim;

    SimHypervisorHost(Simulator sim) {
        this.sim = sim;
    }

    @Override
    public SchedulerContext context() {
        return sim.ctx;
    }

    @Override
    public SchedulerPolicy policy() {
        return sim.policy;
    }

    @Override
    public void reschedule(int pcpu, boolean yielded) {
        sim.schedule(pcpu, yielded);
    }

    @Override
    public boolean inGuestKernel(Vcpu v) {
        GuestThreadRun th = sim.vcpus.get(v.uid).thread;
        return th != null && th.where == GuestThreadRun.ON_VCPU && v.state != VcpuState.OFFLINE
                && (th.locksHeld > 0 || th.mode == GuestThreadRun.SPIN
                        || th.mode == GuestThreadRun.COMPUTE && th.kernel);
    }

    @Override
    public boolean inCriticalSection(Vcpu v) {
        GuestThreadRun th = sim.vcpus.get(v.uid).thread;
        return th != null && th.where == GuestThreadRun.ON_VCPU && v.state != VcpuState.OFFLINE
                && (th.locksHeld > 0 || th.mode == GuestThreadRun.SPIN);
    }
}
