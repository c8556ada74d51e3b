package io.schedlab.engine;

import io.schedlab.engine.builtins.BuiltIns;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.TimelineAction;
import io.schedlab.engine.spec.TraceSpec;
import io.schedlab.engine.spec.VmSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.IntUnaryOperator;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import tools.jackson.databind.json.JsonMapper;
import io.schedlab.engine.run.RunControl;

/**
 * Core scheduling over random topologies, VMs, workloads and timelines (credit and credit2, core and
 * socket granularity, SMT on or off): replaying every switch of the trace, no two domains ever run on
 * one scheduling resource at the same instant; the engine's self-check (no vCPU on two pCPUs, hard
 * affinity) holds; forced idle is part of the idle time; runs are deterministic.
 */
class CoreSchedulingProperties {
    private static final double DURATION = 0.4;
    private static final long TRACE_EVENTS = 2_000_000L;
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final Registry registry = BuiltIns.registry();
    private final Engine engine = new Engine(registry).withSelfCheck();

    @Property(tries = 100)
    void siblingsOnlyEverRunOneDomain(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed ^ 0x5eed);
        for (String policy : coreScheduledPolicies(registry)) {
            String gran = r.nextBoolean() ? "core" : "socket";
            boolean smt = r.nextInt(4) > 0;
            ExperimentSpec raw = coreScheduled(RandomSpecs.generate(seed, policy, registry, DURATION,
                    SimulationInvariantsProperties.numbering(seed)), gran, smt);
            Validation v = engine.validate(raw, Limits.defaults());
            assertThat(v.violations()).as("generated spec for %s %s", policy, gran).isEmpty();
            HostSpec host = v.normalized().host();
            int threads = host.usableThreadsPerCore();
            int size = "core".equals(gran) ? threads : host.coresPerSocket() * threads;
            SwitchReplay replay = new SwitchReplay(resourceKey(host, gran), policy + " " + gran + " smt=" + smt
                    + " " + host.numbering().json() + " seed " + seed);
            ResultDocument doc = engine.run(v.normalized(), Limits.defaults(), RunControl.tracingTo(replay));
            replay.endOfInstant();
            assertThat(replay.switches).as("switches replayed").isPositive();
            assertThat(replay.records).as("trace not truncated").isLessThan(TRACE_EVENTS);
            ResultDocument again = engine.run(v.normalized(), Limits.defaults(), RunControl.NONE);
            assertThat(JSON.writeValueAsString(again.withoutWallTime())).as("determinism")
                    .isEqualTo(JSON.writeValueAsString(doc.withoutWallTime()));
            if (size > 1) {
                assertThat(doc.coreScheduling()).isNotNull();
                doc.pcpus().forEach(p -> assertThat(p.forcedIdleNanos())
                        .isLessThanOrEqualTo(p.idleNanos()));
            } else {
                assertThat(doc.coreScheduling()).isNull();
            }
        }
    }

    /** Replays switch records; at the end of each instant every resource holds vCPUs of at most one VM. */
    static final class SwitchReplay implements io.schedlab.engine.recording.TraceSink {
        private final IntUnaryOperator resourceOf;
        private final String what;
        private final Map<Integer, String> running = new HashMap<>();
        private long instant = -1;
        long switches;
        long records;

        SwitchReplay(IntUnaryOperator resourceOf, String what) {
            this.resourceOf = resourceOf;
            this.what = what;
        }

        @Override
        public void record(long timeNs, int pcpu, String event, String vm, int vcpu) {
            records++;
            if (timeNs != instant) {
                endOfInstant();
                instant = timeNs;
            }
            if ("switch".equals(event)) {
                switches++;
                if (vm == null) {
                    running.remove(pcpu);
                } else {
                    running.put(pcpu, vm);
                }
            }
        }

        void endOfInstant() {
            Map<Integer, String> owner = new HashMap<>();
            for (Map.Entry<Integer, String> e : running.entrySet()) {
                int resource = resourceOf.applyAsInt(e.getKey());
                String other = owner.putIfAbsent(resource, e.getValue());
                assertThat(other == null || other.equals(e.getValue()))
                        .as("%s: at %d ns resource %d runs %s and %s", what, instant, resource, other,
                                e.getValue())
                        .isTrue();
            }
        }
    }

    /**
     * The random spec under core scheduling: hard affinities widened to whole resources (Xen keeps one
     * per unit), per-VM so equal within a unit; no mid-run pin/unpin; with SMT off, no affinities.
     */
    private static ExperimentSpec coreScheduled(ExperimentSpec s, String gran, boolean smt) {
        HostSpec h = s.host();
        HostSpec host = new HostSpec(h.sockets(), h.coresPerSocket(), h.threadsPerCore(), null, null, null, null, null,
                smt, h.cpuNumbering());
        IntUnaryOperator resourceOf = resourceKey(host, gran);
        int pcpus = (int) host.usablePcpus();
        List<VmSpec> vms = new ArrayList<>();
        for (VmSpec vm : s.vms()) {
            vms.add(wholeResources(vm, resourceOf, pcpus, smt));
        }
        List<TimelineAction> timeline = new ArrayList<>();
        for (TimelineAction a : s.timeline()) {
            if (a.action() == TimelineAction.Kind.PIN || a.action() == TimelineAction.Kind.UNPIN) {
                continue;
            }
            if (a.action() == TimelineAction.Kind.SOFT_AFFINITY && !smt) {
                continue;
            }
            if (a.action() == TimelineAction.Kind.CREATE_VM) {
                a = new TimelineAction(a.atSeconds(), a.action(), a.vm(), a.vcpu(), a.pcpus(), a.weight(), a.cap(),
                        wholeResources(a.newVm(), resourceOf, pcpus, smt));
            }
            timeline.add(a);
        }
        return new ExperimentSpec(s.name(), s.labels(), s.seed(), s.durationSeconds(), s.stopWhen(), host,
                new SchedulerSpec(s.scheduler().policy(), Map.of("schedGran", gran)), s.costs(), vms, timeline,
                new TraceSpec(true, TRACE_EVENTS));
    }

    /** The scheduling resource of a pCPU under the host's numbering: its core, or its socket. */
    private static IntUnaryOperator resourceKey(HostSpec host, String gran) {
        return "core".equals(gran) ? host::coreOfPcpu : host::socketOfPcpu;
    }

    private static VmSpec wholeResources(VmSpec vm, IntUnaryOperator resourceOf, int pcpus,
            boolean smt) {
        List<Integer> hard = vm.hardAffinity();
        List<Integer> placement = vm.placement();
        if (!smt) {
            hard = null;
            placement = null;
        } else if (hard != null) {
            TreeSet<Integer> whole = new TreeSet<>();
            for (int cpu : hard) {
                for (int q = 0; q < pcpus; q++) {
                    if (resourceOf.applyAsInt(q) == resourceOf.applyAsInt(cpu)) {
                        whole.add(q);
                    }
                }
            }
            hard = List.copyOf(whole);
        }
        return new VmSpec(vm.name(), vm.vcpus(), vm.weight(), vm.cap(), hard, smt ? vm.softAffinity() : null,
                vm.vcpuAffinity(), vm.memoryMb(), vm.numaNode(), placement, vm.startAtSeconds(), vm.workload());
    }

    /** The registered policies that offer core scheduling (a {@code schedGran} parameter); never empty. */
    static List<String> coreScheduledPolicies(Registry registry) {
        List<String> names = registry.policies().stream()
                .filter(d -> d.parameters().stream().anyMatch(p -> p.name().equals("schedGran")))
                .map(d -> d.name()).toList();
        assertThat(names).as("policies with core scheduling").isNotEmpty();
        return names;
    }
}
