package io.schedlab.engine;

import static io.schedlab.engine.TestSpecs.cpuLoop;
import static io.schedlab.engine.TestSpecs.host;
import static io.schedlab.engine.TestSpecs.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.policies.Decision;
import io.schedlab.engine.policies.SchedulerContext;
import io.schedlab.engine.policies.SchedulerPolicy;
import io.schedlab.engine.policies.SelfCheckAssumptions;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.workloads.CpuLoopWorkload;
import io.schedlab.engine.workloads.IdleWorkload;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import io.schedlab.engine.run.RunControl;

/** The simulator refuses broken policy answers and its self-check catches invariant breaches. */
class SelfCheckTest {

    /** A FIFO single-queue policy that can be made to misbehave. */
    static class FifoPolicy implements SchedulerPolicy, SelfCheckAssumptions {
        final List<Vcpu> queue = new ArrayList<>();
        SchedulerContext ctx;
        final boolean onlyPcpu0;
        final boolean ignoreAffinity;

        FifoPolicy(boolean onlyPcpu0, boolean ignoreAffinity) {
            this.onlyPcpu0 = onlyPcpu0;
            this.ignoreAffinity = ignoreAffinity;
        }

        public void init(SchedulerContext ctx) {
            this.ctx = ctx;
        }

        public void addVcpu(Vcpu v) {
        }

        public void removeVcpu(Vcpu v) {
            queue.remove(v);
        }

        public int pickCpu(Vcpu v) {
            return v.allowedOn(v.processor) ? v.processor : v.hardAffinity.nextSetBit(0);
        }

        public void wake(Vcpu v) {
            queue.add(v);
            for (Pcpu p : ctx.topology().pcpus()) {
                if (p.isIdle()) {
                    ctx.tickle(p.id);
                }
            }
        }

        public void sleep(Vcpu v) {
            queue.remove(v);
        }

        public Decision doSchedule(Pcpu p, Vcpu prev, boolean yielded) {
            if (onlyPcpu0 && p.id != 0) {
                return Decision.idle();
            }
            for (Vcpu v : queue) {
                if (ignoreAffinity || v.allowedOn(p.id)) {
                    queue.remove(v);
                    return new Decision(v, 10_000_000);
                }
            }
            return prev != null && prev.state == VcpuState.RUNNING ? new Decision(prev, 10_000_000)
                    : Decision.idle();
        }

        public void contextSaved(Vcpu prev) {
            if (prev.state == VcpuState.RUNNABLE) {
                queue.add(prev);
            }
        }

        public int lockDomain(Pcpu p) {
            return 0;
        }

        public int runqueueCount() {
            return 1;
        }

        public long balancePeriodNanos() {
            return 5_000_000L;
        }
    }

    private static Engine engineWith(Function<io.schedlab.engine.params.Params, SchedulerPolicy> factory) {
        Registry r = new Registry();
        r.register(new PolicyDescriptor("test", "test policy", List.of(), factory));
        r.register(IdleWorkload.descriptor());
        r.register(CpuLoopWorkload.descriptor());
        return new Engine(r).withSelfCheck();
    }

    private static ExperimentSpec twoLoopsOnTwoPcpus() {
        return spec(host(1, 2, 1), "test", 5, List.of(cpuLoop("a", 0, 1), cpuLoop("b", 1, 1)), List.of());
    }

    @Test
    void aWellBehavedWorkConservingPolicyPasses() {
        Engine engine = engineWith(p -> new FifoPolicy(false, false));
        var doc = engine.run(twoLoopsOnTwoPcpus(), Limits.defaults(), RunControl.NONE);
        assertThat(Seconds.of(doc.vms().get(0).completionNanos())).isLessThan(1.01);
        // one global lock shared by 2 pCPUs costs more per decision than the uncontended base
        assertThat(doc.distributions().decision().maxNanos()).isGreaterThan(300);
    }

    @Test
    void aGlobalSchedulerLockMakesDecisionsWaitAsPcpusShareIt() {
        // seed 000's set-up: one global queue behind one spinlock, 5 always-runnable loops on 6 pCPUs
        Engine global = engineWith(p -> new FifoPolicy(false, false));
        List<io.schedlab.engine.spec.VmSpec> vms = List.of(
                TestSpecs.vm("dom0", 1, List.of(0), "idle", java.util.Map.of()),
                TestSpecs.vm("guest", 5, List.of(1, 2, 3, 4, 5), "cpu-loop",
                        java.util.Map.of("threads", 10, "workSeconds", 0.0)));
        var shared = global.run(spec(host(1, 6, 1), "test", 2, vms, List.of()), Limits.defaults(), RunControl.NONE);
        var two = global.run(spec(host(1, 2, 1), "test", 2, List.of(
                TestSpecs.vm("guest", 2, List.of(0, 1), "cpu-loop", java.util.Map.of("threads", 4, "workSeconds", 0.0))),
                List.of()), Limits.defaults(), RunControl.NONE);
        // hold time grows with the pCPUs sharing the lock (cost model), and waits appear under contention
        assertThat(shared.distributions().decision().p50Nanos())
                .isGreaterThan(two.distributions().decision().p50Nanos());
        assertThat(shared.distributions().decision().maxNanos())
                .isGreaterThan(shared.distributions().decision().p50Nanos());
    }

    @Test
    void idlingAnAllowedPcpuBeyondTheBalancePeriodIsCaught() {
        Engine engine = engineWith(p -> new FifoPolicy(true, false));
        assertThatThrownBy(() -> engine.run(twoLoopsOnTwoPcpus(), Limits.defaults(), RunControl.NONE))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("idle");
    }

    @Test
    void aPolicyThatTicklesOnlyOnWakeIsStillCheckedFromTheWake() {
        // as credit1: a re-queued vCPU is exempt, a woken one left beside an idle allowed pCPU is not
        Engine engine = engineWith(p -> new FifoPolicy(true, false) {
            @Override
            public boolean requeueTicklesIdlers() {
                return false;
            }
        });
        assertThatThrownBy(() -> engine.run(twoLoopsOnTwoPcpus(), Limits.defaults(), RunControl.NONE))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("idle");
    }

    @Test
    void runningAVcpuOutsideItsHardAffinityIsRefused() {
        Engine engine = engineWith(p -> new FifoPolicy(false, true));
        ExperimentSpec s = spec(host(1, 2, 1), "test", 5, List.of(
                new io.schedlab.engine.spec.VmSpec("a", 1, null, null, List.of(1), null, null, null, null, null, null,
                        new io.schedlab.engine.spec.WorkloadSpec("cpu-loop", null)),
                cpuLoop("b", 1, 1)), List.of());
        assertThatThrownBy(() -> engine.run(s, Limits.defaults(), RunControl.NONE))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("hard affinity");
    }
}
