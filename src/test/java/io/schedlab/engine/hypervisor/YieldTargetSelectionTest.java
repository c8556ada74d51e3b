package io.schedlab.engine.hypervisor;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.TestSpecs;
import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Topology;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.model.VcpuStateMachine;
import io.schedlab.engine.model.Vm;
import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.policies.Decision;
import io.schedlab.engine.policies.DirectedYield;
import io.schedlab.engine.policies.SchedulerContext;
import io.schedlab.engine.policies.SchedulerPolicy;
import io.schedlab.engine.policies.YieldToResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/**
 * Which vCPU kvm_vcpu_on_spin boosts, by handler variant: the layer on a scripted host whose guest states
 * (kernel mode, critical section) and run states are set by the test, and whose policy records every yield_to.
 */
class YieldTargetSelectionTest {

    private final Topology topology = TestSpecs.topology(1, 4, 1);
    private final Vm vm = new Vm(0, "guest", 256, 0, 1024, 0);
    private final Set<Vcpu> inKernel = new HashSet<>();
    private final Set<Vcpu> inCritical = new HashSet<>();
    private final List<Vcpu> yieldedTo = new ArrayList<>();
    private final List<Runnable> timers = new ArrayList<>();

    private Vcpu vcpu(int index) {
        Vcpu v = new Vcpu(vm, index, index, index);
        vm.vcpus.add(v);
        VcpuStateMachine.move(v, VcpuState.BLOCKED);
        return v;
    }

    /** v ran and was preempted (still runnable) in the given guest state. */
    private void preempt(KvmLayer layer, Vcpu v, boolean kernel, boolean critical) {
        run(layer, v);
        if (kernel) {
            inKernel.add(v);
        }
        if (critical) {
            inCritical.add(v);
        }
        VcpuStateMachine.move(v, VcpuState.RUNNABLE);
        layer.vcpuStopped(v);
    }

    /** v ran, halted (blocked, guest idle), then was woken and waits for its CPU. */
    private void haltThenWake(KvmLayer layer, Vcpu v) {
        run(layer, v);
        VcpuStateMachine.move(v, VcpuState.BLOCKED);
        layer.vcpuStopped(v);
        VcpuStateMachine.move(v, VcpuState.RUNNABLE);
    }

    private static void run(KvmLayer layer, Vcpu v) {
        if (v.state == VcpuState.BLOCKED) {
            VcpuStateMachine.move(v, VcpuState.RUNNABLE);
        }
        VcpuStateMachine.move(v, VcpuState.RUNNING);
        layer.vcpuStarted(v);
    }

    /** The spinner on vCPU 0 reaches its first pause-loop exit; returns the vCPU it yielded to, or null. */
    private Vcpu firstYieldOfSpinner(KvmLayer layer, Vcpu spinner) {
        run(layer, spinner);
        layer.spinStarted(spinner);
        assertThat(timers).as("the PLE window is armed").hasSize(1);
        timers.remove(0).run();
        return yieldedTo.isEmpty() ? null : yieldedTo.get(0);
    }

    private KvmLayer layer(String handler) {
        Map<String, Object> values = new HashMap<>();
        for (ParameterSpec p : KvmParameters.specs()) {
            values.put(p.name(), p.defaultValue());
        }
        values.put("pleHandler", handler);
        return KvmLayer.create(new Params(values), new ScriptedHost());
    }

    @Test
    void upstreamBoostsTheFirstVcpuPreemptedInKernelModeEvenOutsideACriticalSection() {
        KvmLayer layer = layer("upstream");
        Vcpu spinner = vcpu(0);
        Vcpu syscall = vcpu(1);
        Vcpu holder = vcpu(2);
        vcpu(3);
        preempt(layer, syscall, true, false);
        preempt(layer, holder, true, true);
        assertThat(firstYieldOfSpinner(layer, spinner)).isSameAs(syscall);
    }

    @Test
    void criticalSectionHandlerSkipsPreemptibleKernelWorkAndBoostsTheVcpuInsideACriticalSection() {
        KvmLayer layer = layer("critical-section");
        Vcpu spinner = vcpu(0);
        Vcpu syscall = vcpu(1);
        Vcpu holder = vcpu(2);
        vcpu(3);
        preempt(layer, syscall, true, false);
        preempt(layer, holder, true, true);
        assertThat(firstYieldOfSpinner(layer, spinner)).isSameAs(holder);
        assertThat(layer.statistics().run().get(HypervisorStatistics.CANDIDATES_SCANNED))
                .as("vCPU 1 was examined and skipped").isGreaterThanOrEqualTo(2);
    }

    @Test
    void criticalSectionHandlerYieldsToNoOneWhenNoPreemptedVcpuIsInACriticalSection() {
        KvmLayer layer = layer("critical-section");
        Vcpu spinner = vcpu(0);
        preempt(layer, vcpu(1), true, false);
        preempt(layer, vcpu(2), false, false);
        assertThat(firstYieldOfSpinner(layer, spinner)).isNull();
        assertThat(layer.statistics().run().get(HypervisorStatistics.YIELDS_TRIED)).isZero();
    }

    @Test
    void beforeTheIpiBoostAVcpuWokenFromHaltIsNoCandidate() {
        KvmLayer layer = layer("both");
        Vcpu spinner = vcpu(0);
        haltThenWake(layer, vcpu(1));
        assertThat(firstYieldOfSpinner(layer, spinner)).isNull();
    }

    @Test
    void fromTheIpiBoostOnAVcpuWokenFromHaltIsACandidate() {
        // d73eb57b80b: vcpu->ready is set by kvm_vcpu_wake_up, and the kernel-mode filter applies to preempted vCPUs
        KvmLayer layer = layer("ipi-boost");
        Vcpu spinner = vcpu(0);
        Vcpu woken = vcpu(1);
        haltThenWake(layer, woken);
        assertThat(firstYieldOfSpinner(layer, spinner)).isSameAs(woken);
    }

    @Test
    void upstreamAndCriticalSectionNeitherReturnEarlyNorScheduleWhenNoYieldSucceeds() {
        for (String handler : List.of("upstream", "critical-section")) {
            PleHandler h = PleHandler.of(handler);
            assertThat(h.undercommitReturn()).as(handler).isFalse();
            assertThat(h.overcommitSchedule()).as(handler).isFalse();
            assertThat(h.interruptBoost()).as(handler).isTrue();
        }
        assertThat(PleHandler.of("ipi-boost").overcommitSchedule()).isTrue();
    }

    @Test
    void aVcpuWokenFromHaltCountsAsInACriticalSectionForItsIdleLoopRunsWithPreemptionDisabled() {
        KvmLayer layer = layer("critical-section");
        Vcpu spinner = vcpu(0);
        Vcpu woken = vcpu(1);
        haltThenWake(layer, woken);
        assertThat(firstYieldOfSpinner(layer, spinner)).isSameAs(woken);
    }

    /** The host as the layer sees it: the test's guest states, a policy that records yields, timers the test fires. */
    private final class ScriptedHost implements HypervisorHost {
        private final RecordingPolicy policy = new RecordingPolicy();

        @Override
        public SchedulerContext context() {
            return new SchedulerContext() {
                @Override
                public long now() {
                    return 0;
                }

                @Override
                public Topology topology() {
                    return topology;
                }

                @Override
                public List<Vm> vms() {
                    return List.of(vm);
                }

                @Override
                public void tickle(int pcpu) {
                }

                @Override
                public TimerHandle setTimer(long at, Runnable action) {
                    timers.add(action);
                    return () -> timers.remove(action);
                }

                @Override
                public RandomGenerator random() {
                    return RandomGenerator.of("L64X128MixRandom");
                }

                @Override
                public long runningFor(Vcpu v) {
                    return 0;
                }

                @Override
                public boolean isSpinning(Vcpu v) {
                    return v.index == 0 && v.state == VcpuState.RUNNING;
                }

                @Override
                public Params schedParams(Vcpu v) {
                    return new Params(Map.of());
                }

                @Override
                public Params schedParams(Vm v) {
                    return new Params(Map.of());
                }
            };
        }

        @Override
        public void yield(Vcpu v) {
        }

        @Override
        public YieldToResult yieldTo(Vcpu from, Vcpu to) {
            return policy.yieldTo(from, to);
        }

        @Override
        public int nrRunning(int pcpu) {
            return policy.nrRunning(null);
        }

        @Override
        public void reschedule(int pcpu, boolean yielded) {
        }

        @Override
        public boolean inGuestKernel(Vcpu v) {
            return inKernel.contains(v);
        }

        @Override
        public boolean inCriticalSection(Vcpu v) {
            return inCritical.contains(v);
        }
    }

    /** Two tasks on every run queue (overcommitted: no undercommit return, no -ESRCH); every yield_to succeeds. */
    private final class RecordingPolicy implements SchedulerPolicy, DirectedYield {
        @Override
        public YieldToResult yieldTo(Vcpu from, Vcpu to) {
            yieldedTo.add(to);
            return YieldToResult.YIELDED;
        }

        @Override
        public int nrRunning(Pcpu p) {
            return 2;
        }

        @Override
        public void init(SchedulerContext ctx) {
        }

        @Override
        public void addVcpu(Vcpu v) {
        }

        @Override
        public void removeVcpu(Vcpu v) {
        }

        @Override
        public int pickCpu(Vcpu v) {
            return v.processor;
        }

        @Override
        public void wake(Vcpu v) {
        }

        @Override
        public void sleep(Vcpu v) {
        }

        @Override
        public Decision doSchedule(Pcpu p, Vcpu prev, boolean prevYielded) {
            return null;
        }

        @Override
        public void contextSaved(Vcpu prev) {
        }

        @Override
        public int lockDomain(Pcpu p) {
            return 0;
        }

        @Override
        public int runqueueCount() {
            return 1;
        }
    }
}
