package io.schedlab.engine;

import io.schedlab.engine.builtins.BuiltIns;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.output.PcpuResult;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.VcpuResult;
import io.schedlab.engine.output.VmResult;
import io.schedlab.engine.spec.CpuNumbering;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import tools.jackson.databind.json.JsonMapper;
import io.schedlab.engine.run.RunControl;

/**
 * Invariants over random small experiments, for every registered policy (new policies are covered
 * automatically). The engine runs in self-check mode, which fails on a vCPU on two pCPUs, a run
 * outside hard affinity, or (for work-conserving policies) an allowed pCPU idle for a balance period
 * while a vCPU waited as long. The seed is pinned (see {@link ExploreWithRandomSeeds} to explore);
 * counterexamples found while exploring stay as {@code @Example}s below.
 */
@AddLifecycleHook(ExploreWithRandomSeeds.class)
class SimulationInvariantsProperties {
    private static final double DURATION = 0.5;
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final Registry registry = BuiltIns.registry();
    private final Engine engine = new Engine(registry).withSelfCheck();

    @Property(seed = "20261201", tries = 100)
    void everyPolicyKeepsTheInvariants(@ForAll long seed) {
        everyPolicyKeepsTheInvariants(seed, numbering(seed));
    }

    private void everyPolicyKeepsTheInvariants(long seed, CpuNumbering numbering) {
        for (PolicyDescriptor policy : registry.policies()) {
            ExperimentSpec raw = RandomSpecs.generate(seed, policy.name(), registry, DURATION, numbering);
            Validation v = engine.validate(raw, Limits.defaults());
            assertThat(v.violations()).as("generated spec for %s", policy.name()).isEmpty();
            ResultDocument doc = engine.run(v.normalized(), Limits.defaults(), RunControl.NONE);
            checkAccounting(doc, policy.name());
            ResultDocument again = engine.run(v.normalized(), Limits.defaults(), RunControl.NONE);
            assertThat(JSON.writeValueAsString(again.withoutWallTime()))
                    .as("determinism of %s", policy.name())
                    .isEqualTo(JSON.writeValueAsString(doc.withoutWallTime()));
        }
    }

    /** Odd seeds run on a host numbered cores first (siblings apart), even ones on the default numbering. */
    static CpuNumbering numbering(long seed) {
        return (seed & 1) == 1 ? CpuNumbering.CORES_FIRST : null;
    }

    /**
     * Found at seed -412: a CPU that went idle while its periodic balance was still timed at the busy
     * interval (x busy_factor) left a task waiting beside it; an idle CPU now balances at the idle interval.
     */
    @net.jqwik.api.Example
    void linuxPoliciesPullOntoACpuThatJustWentIdle() {
        for (String policy : registry.policies().stream().filter(d -> d.hypervisor().equals("kvm")).map(d -> d.name())
                .toList()) {
            ExperimentSpec raw = RandomSpecs.generate(-412L, policy, registry, DURATION);
            Validation v = engine.validate(raw, Limits.defaults());
            assertThat(v.violations()).isEmpty();
            checkAccounting(engine.run(v.normalized(), Limits.defaults(), RunControl.NONE), policy);
        }
    }

    /**
     * credit preempts a low-weight vCPU by one stolen from another queue and re-queues it on its pCPU
     * for over a timeslice while the one other pCPU it may use idles: Xen's credit1 does the same, as
     * only a wake or a migration tickles idle pCPUs (CreditPolicy#requeueTicklesIdlers).
     */
    @Example
    void creditKeepsAPreemptedVcpuQueuedBesideAnIdlePcpu() {
        long seed = 6050263614439623347L;
        everyPolicyKeepsTheInvariants(seed, null); // the spec it was found on: siblings adjacent
        ExperimentSpec spec = engine.validate(RandomSpecs.generate(seed, "credit", registry, DURATION), Limits.defaults())
                .normalized();
        ResultDocument doc = engine.run(spec, Limits.defaults(), RunControl.NONE);
        long tsliceNanos = 30_000_000L; // credit's default tsliceMs (CSCHED_DEFAULT_TSLICE_MS)
        assertThat(doc.distributions().runqueueWait().maxNanos())
                .as("seed %d still builds a wait longer than credit's timeslice", seed).isGreaterThan(tsliceNanos);
        assertThat(doc.pcpus()).as("seed %d still leaves a pCPU idle longer than a timeslice", seed)
                .anyMatch(p -> p.idleNanos() > tsliceNanos);
    }

    private static void checkAccounting(ResultDocument doc, String policy) {
        double elapsed = Seconds.of(doc.summary().simulatedNanos());
        double busy = 0;
        for (PcpuResult p : doc.pcpus()) {
            assertThat(Seconds.of(p.busyNanos()) + Seconds.of(p.idleNanos()) + Seconds.of(p.overheadNanos()))
                    .as("%s pcpu%d busy+idle+overhead", policy, p.pcpu()).isCloseTo(elapsed, within(1e-6));
            assertThat(Seconds.of(p.busyNanos())).isGreaterThanOrEqualTo(0);
            assertThat(Seconds.of(p.idleNanos())).isGreaterThanOrEqualTo(0);
            assertThat(Seconds.of(p.overheadNanos())).isGreaterThanOrEqualTo(0);
            busy += Seconds.of(p.busyNanos());
        }
        double cpu = 0;
        for (VmResult vm : doc.vms()) {
            // a shut-down VM's vCPUs stop accounting at the shutdown; a completed one's go on (blocked) to the end
            boolean shutDown = vm.endNanos() != null && !vm.endNanos().equals(vm.completionNanos());
            double life = (shutDown ? Seconds.of(vm.endNanos()) : elapsed) - Seconds.of(vm.startNanos());
            for (VcpuResult vc : vm.vcpus()) {
                assertThat(Seconds.of(vc.cpuNanos()) + Seconds.of(vc.runnableWaitNanos()) + Seconds.of(vc.blockedNanos()))
                        .as("%s %s.v%d time split", policy, vm.name(), vc.vcpu()).isLessThanOrEqualTo(life + 1e-6);
                assertThat(Seconds.of(vc.spinNanos())).isLessThanOrEqualTo(Seconds.of(vc.cpuNanos()) + 1e-9);
                double onPcpus = vc.ranOn().stream().mapToDouble(t -> Seconds.of(t.nanos())).sum();
                assertThat(onPcpus).isCloseTo(Seconds.of(vc.cpuNanos()), within(1e-6));
            }
            cpu += Seconds.of(vm.cpuNanosAllVcpus());
        }
        assertThat(cpu).as("%s total CPU = pCPU busy", policy).isCloseTo(busy, within(1e-6));
        assertThat(cpu).as("%s total CPU <= pCPUs x elapsed", policy)
                .isLessThanOrEqualTo(doc.pcpus().size() * elapsed + 1e-6);
        if (doc.fairness().competingVms().isEmpty()) {
            assertThat(doc.fairness().jainIndex()).as("%s no competing VM, no index", policy).isNull();
        } else {
            assertThat(doc.fairness().jainIndex()).isBetween(1.0 / doc.fairness().competingVms().size() - 1e-9,
                    1.0 + 1e-9);
        }
    }
}
