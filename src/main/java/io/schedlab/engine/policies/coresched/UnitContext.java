package io.schedlab.engine.policies.coresched;

import io.schedlab.engine.model.Topology;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.model.Vm;
import io.schedlab.engine.policies.SchedulerContext;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The host as the inner policy sees it under core scheduling: one "pCPU" per scheduling resource,
 * units for vCPUs, shadow domains holding the units; a tickle of a resource goes to its master pCPU.
 */
final class UnitContext implements SchedulerContext {
    private final SchedulerContext host;
    private final UnitScheduler units;
    private final Topology resourceTopology;

    UnitContext(SchedulerContext host, UnitScheduler units, Topology resourceTopology) {
        this.host = host;
        this.units = units;
        this.resourceTopology = resourceTopology;
    }

    @Override
    public long now() {
        return host.now();
    }

    @Override
    public Topology topology() {
        return resourceTopology;
    }

    @Override
    public int onlineCpus() {
        return host.onlineCpus();
    }

    @Override
    public List<Vm> vms() {
        return host.vms().stream().map(units::shadowOf).filter(java.util.Objects::nonNull).toList();
    }

    @Override
    public void tickle(int resource) {
        units.tickleResource(resource);
    }

    @Override
    public TimerHandle setTimer(long at, Runnable action) {
        return host.setTimer(at, action);
    }

    @Override
    public RandomGenerator random() {
        return host.random();
    }

    @Override
    public long runningFor(Vcpu unit) {
        return unit.state == VcpuState.RUNNING ? Math.max(0, host.now() - units.unitOf(unit).runningSince) : 0;
    }

    @Override
    public boolean isSpinning(Vcpu unit) {
        for (Vcpu m : units.unitOf(unit).members) {
            if (m != null && host.isSpinning(m)) {
                return true;
            }
        }
        return false;
    }

    /** A unit's parameters are those of its first member (credit and credit2 declare none per vCPU). */
    @Override
    public io.schedlab.engine.params.Params schedParams(Vcpu unit) {
        for (Vcpu m : units.unitOf(unit).members) {
            if (m != null) {
                return host.schedParams(m);
            }
        }
        return new io.schedlab.engine.params.Params(java.util.Map.of());
    }

    @Override
    public io.schedlab.engine.params.Params schedParams(Vm shadow) {
        for (Vm vm : host.vms()) {
            if (vm.id == shadow.id) {
                return host.schedParams(vm);
            }
        }
        return new io.schedlab.engine.params.Params(java.util.Map.of());
    }
}
