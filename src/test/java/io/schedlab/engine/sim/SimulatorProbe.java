package io.schedlab.engine.sim;

import io.schedlab.engine.builtins.BuiltIns;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.Validation;
import io.schedlab.engine.Engine;
import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Topology;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.policies.SchedulerPolicy;
import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import java.util.function.UnaryOperator;

/**
 * The real {@link Simulator}, advanced in steps so a policy test can look at the policy's state (credit,
 * priority, run queue) and at vCPU states at an exact instant, between the events of a normal run. Nothing
 * of the schedule path is replaced: the experiment is validated and normalized as the engine does, every
 * cost and latency applies, and the self-check runs after every event.
 */
public final class SimulatorProbe {
    private static final Engine ENGINE = Engine.standard();
    private final Simulator sim;
    private long at;

    private SimulatorProbe(ExperimentSpec normalized) {
        this.sim = new Simulator(normalized, BuiltIns.registry(), Limits.defaults(), RunControl.NONE).withSelfCheck();
        sim.start();
        runUntil(0);
    }

    /** Validates {@code raw} (no violation allowed) and runs the events at time 0 (VMs starting then exist). */
    public static SimulatorProbe of(ExperimentSpec raw) {
        return of(raw, UnaryOperator.identity());
    }

    /**
     * As {@link #of(ExperimentSpec)}, with the normalized spec changed by {@code edit} before the run: a
     * setting the validator rejects, to show what the policy does with it anyway.
     */
    public static SimulatorProbe of(ExperimentSpec raw, UnaryOperator<ExperimentSpec> edit) {
        Validation v = ENGINE.validate(raw, Limits.defaults());
        assertThat(v.violations()).as("violations").isEmpty();
        return new SimulatorProbe(edit.apply(v.normalized()));
    }

    /** Processes every event at or before {@code nanos}; the clock then reads {@code nanos}. */
    public SimulatorProbe runUntil(long nanos) {
        if (nanos < at) {
            throw new IllegalArgumentException("the clock is at " + at + " ns already");
        }
        sim.advanceThrough(nanos);
        at = nanos;
        return this;
    }

    public long now() {
        return at;
    }

    /** The run's policy (at cpu granularity the descriptor's own instance). */
    public <T extends SchedulerPolicy> T policy(Class<T> type) {
        return type.cast(sim.path().policy);
    }

    public Topology topology() {
        return sim.topo();
    }

    public Pcpu pcpu(int id) {
        return sim.pcpus()[id];
    }

    /** vCPU {@code index} of the VM named {@code vm} (started by now). */
    public Vcpu vcpu(String vm, int index) {
        return vmRun(vm).vcpus.get(index).v;
    }

    /** CPU time the VM's vCPUs ran up to the clock, the current runs included. */
    public long cpuNanos(String vm) {
        long total = 0;
        for (VcpuRun vr : vmRun(vm).vcpus) {
            total += vr.cpuNs;
            if (vr.v.state == VcpuState.RUNNING) {
                total += Math.max(0, at - vr.runStart);
            }
        }
        return total;
    }

    /** schedule() on pCPU p now, as a tickle or slice end would run it. */
    public void reschedule(int p) {
        sim.path().schedule(p, false);
    }

    /** The running v yields its pCPU now (Xen vcpu_yield: the policy's yield, then schedule() on its pCPU). */
    public void yieldVcpu(Vcpu v) {
        assertThat(v.state).as("a yielding vCPU runs").isEqualTo(VcpuState.RUNNING);
        sim.path().yield(v);
    }

    private VmRun vmRun(String name) {
        return sim.tables().vms().stream().filter(r -> r.vm.name.equals(name)).findFirst().orElseThrow();
    }
}
