package io.schedlab.engine.policies;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.Seconds;
import io.schedlab.engine.Validation;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.VcpuResult;
import io.schedlab.engine.output.VmResult;
import io.schedlab.engine.sim.SimulatorProbe;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.TraceSpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import io.schedlab.engine.workloads.EngineRuns;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Policy tests through the real engine ({@code Engine.run}): small hosts, endless loops and periodic bursts. */
public final class PolicyRuns {
    private static final Engine ENGINE = Engine.standard();
    private PolicyRuns() {
    }

    /** A VM of endless CPU loops, one per vCPU, starting on the given pCPUs (none = the default placement). */
    public static VmSpec loops(String name, int weight, int cap, int vcpus, Integer... placement) {
        return new VmSpec(name, vcpus, weight, cap, null, null, null, null, null,
                placement.length == 0 ? null : Arrays.asList(placement), null,
                new WorkloadSpec("cpu-loop", Map.of("threads", vcpus, "workSeconds", 0)));
    }

    /** A VM whose vCPUs each sleep {@code sleepMs} then compute {@code burstUs}, without jitter. */
    public static VmSpec bursts(String name, int vcpus, int burstUs, int sleepMs, List<Integer> hard,
            List<Integer> soft) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("threads", vcpus);
        p.put("wakeIntervalMs", sleepMs);
        p.put("burstUs", burstUs);
        p.put("jitter", 0.0);
        return new VmSpec(name, vcpus, null, null, hard, soft, null, null, null, null, null,
                new WorkloadSpec("idle", p));
    }

    /** Runs {@code vms} for {@code seconds} on {@code sockets x cores x threads} under the policy. */
    public static ResultDocument run(String policy, Map<String, Object> params, int sockets, int cores, int threads,
            double seconds, List<VmSpec> vms) {
        return EngineRuns.run(spec(policy, params, sockets, cores, threads, seconds, vms));
    }

    /** The experiment {@link #run} runs (seed 3, to the duration, no trace). */
    public static ExperimentSpec spec(String policy, Map<String, Object> params, int sockets, int cores, int threads,
            double seconds, List<VmSpec> vms) {
        return new ExperimentSpec("policy test", null, 3L, seconds, ExperimentSpec.StopCondition.DURATION,
                new HostSpec(sockets, cores, threads, null, null, null, null), new SchedulerSpec(policy, params), null,
                vms, null, new TraceSpec(false, null));
    }

    /** The real simulator on {@link #spec}, to be advanced step by step (policy state at exact instants). */
    public static SimulatorProbe probe(String policy, Map<String, Object> params, int sockets, int cores,
            int threads, double seconds, List<VmSpec> vms) {
        return SimulatorProbe.of(spec(policy, params, sockets, cores, threads, seconds, vms));
    }

    /** A VM that starts at {@code seconds} (its vCPUs wake then). */
    public static VmSpec startingAt(VmSpec vm, double seconds) {
        return new VmSpec(vm.name(), vm.vcpus(), vm.weight(), vm.cap(), vm.hardAffinity(), vm.softAffinity(),
                vm.vcpuAffinity(), vm.memoryMb(), vm.numaNode(), vm.placement(), seconds, vm.workload());
    }

    /** One vCPU that computes {@code workSeconds} once, then blocks for good. */
    public static VmSpec once(String name, int weight, double workSeconds, int pcpu) {
        return new VmSpec(name, 1, weight, 0, null, null, null, null, null, List.of(pcpu), null,
                new WorkloadSpec("cpu-loop", Map.of("threads", 1, "workSeconds", workSeconds)));
    }

    /** One trace record. */
    public record TraceRecord(long timeNanos, int pcpu, String event, String vm, int vcpu) {
    }

    /** As {@link #run}, collecting the trace (at most 100000 records). */
    public static List<TraceRecord> trace(String policy, Map<String, Object> params, int sockets, int cores,
            int threads, double seconds, List<VmSpec> vms) {
        List<TraceRecord> records = new ArrayList<>();
        ExperimentSpec raw = new ExperimentSpec("policy test", null, 3L, seconds,
                ExperimentSpec.StopCondition.DURATION, new HostSpec(sockets, cores, threads, null, null, null, null),
                new SchedulerSpec(policy, params), null, vms, null, new TraceSpec(true, 100_000L));
        Validation v = ENGINE.validate(raw, Limits.defaults());
        assertThat(v.violations()).as("violations").isEmpty();
        ENGINE.run(v.normalized(), Limits.defaults(),
                RunControl.tracingTo((t, p, e, vm, vc) -> records.add(new TraceRecord(t, p, e, vm, vc))));
        return records;
    }

    public static VmResult vm(ResultDocument doc, String name) {
        return doc.vms().stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow();
    }

    /** CPU seconds vCPU {@code vcpu} of {@code vm} ran on {@code pcpu}. */
    public static double secondsOn(ResultDocument doc, String vm, int vcpu, int pcpu) {
        return vm(doc, vm).vcpus().get(vcpu).ranOn().stream().filter(t -> t.pcpu() == pcpu)
                .mapToDouble(t -> Seconds.of(t.nanos())).sum();
    }

    /**
     * Scenario shared by the credit and credit2 tests: on 1 socket x 4 cores, a 2-vCPU VM on pCPUs
     * 0-1 (3 ms bursts every 7 ms) and a 1-vCPU VM (2 ms every 3 ms) with soft affinity to pCPU 3;
     * 5 simulated seconds. Returns the soft vCPU's share of its CPU time on pCPU 3 and the other VM's CPU.
     */
    public static double[] softAffinityScenario(String policy) {
        ResultDocument doc = run(policy, Map.of(), 1, 4, 1, 5.0,
                List.of(bursts("other", 2, 3_000, 7, List.of(0, 1), null), bursts("soft", 1, 2_000, 3, null, List.of(3))));
        VmResult soft = vm(doc, "soft");
        return new double[] {secondsOn(doc, "soft", 0, 3) / Seconds.of(soft.cpuNanosAllVcpus()), Seconds.of(vm(doc, "other").cpuNanosAllVcpus())};
    }
}
