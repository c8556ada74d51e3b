package io.schedlab.engine.spec;

import io.schedlab.engine.costs.CostModel;
import io.schedlab.engine.hypervisor.Hypervisor;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.workloads.WorkloadDescriptor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Fills every default of a structurally valid spec, so the engine and the stored record see the
 * same explicit values. Idempotent: normalizing a normalized spec returns an equal spec.
 * List positions are preserved, so violations found afterwards can point into the raw document.
 */
public final class SpecNormalizer {
    public static final String DEFAULT_NAME = "experiment";
    public static final long DEFAULT_SEED = 1L;
    /** Upper bound of a run when the spec gives none (also the bound of all-complete runs). */
    public static final double DEFAULT_DURATION_SECONDS = 600.0;
    public static final int DEFAULT_WEIGHT = 256;
    public static final int DEFAULT_MEMORY_MB = 1024;
    public static final int DEFAULT_NODE_MEMORY_MB = 16_384;
    /**
     * Memory bandwidth of a NUMA node: a calibration knob, not a measured figure (a Xeon X5570 socket's
     * three DDR3-1333 channels peak at ~32 GB/s; what a guest's streams get is lower and varies).
     */
    public static final double DEFAULT_NODE_BANDWIDTH_MBPS = 10_000.0;
    /**
     * ACPI SLIT: 10 = local; 21 is what firmware of two-socket Xeon servers commonly reports for the
     * other socket (numactl --hardware: "node distances: 10 21 / 21 10"). The model's use of 10/21 as
     * the remote throughput factor is a calibration knob: SLIT distances are relative, not rates.
     */
    public static final int LOCAL_DISTANCE = 10;
    public static final int REMOTE_DISTANCE = 21;
    /** Xeon X5570 class (E3): 8 MB LLC per socket, 256 KB L2 per core. */
    public static final int DEFAULT_LLC_KB = 8_192;
    public static final int DEFAULT_L2_KB = 256;
    /** Nehalem (Xeon X5570 class) L1 data cache: 32 KiB per core (Intel 64 and IA-32 Optimization Reference Manual). */
    public static final int DEFAULT_L1_KB = 32;
    public static final long DEFAULT_TRACE_EVENTS = 100_000L;

    private final Registry registry;

    public SpecNormalizer(Registry registry) {
        this.registry = registry;
    }

    public ExperimentSpec normalize(ExperimentSpec raw) {
        return normalize(raw, DEFAULT_TRACE_EVENTS);
    }

    /** Normalizes with the trace bound defaulting to at most {@code maxTraceEvents} (the run limit). */
    public ExperimentSpec normalize(ExperimentSpec raw, long maxTraceEvents) {
        HostSpec host = normalizeHost(raw.host());
        int pcpus = (int) host.usablePcpus();
        PolicyDescriptor policy = registry.policy(raw.scheduler().policy()).orElseThrow();
        Map<String, Object> policyParams = ParameterValues.normalize(raw.scheduler().params(), policy.parameters());
        Hypervisor hypervisor = Hypervisor.fromJson(raw.scheduler().hypervisor())
                .orElseGet(() -> Hypervisor.fromJson(policy.hypervisor()).orElse(Hypervisor.XEN));
        InitialPlacement.Creation rr = new InitialPlacement.Creation(host, pcpus, hypervisor,
                InitialPlacement.xenRelease(policy, policyParams), raw.seed() != null ? raw.seed() : DEFAULT_SEED);
        List<VmSpec> vms = new ArrayList<>();
        for (VmSpec vm : raw.vms()) {
            vms.add(normalizeVm(vm, host, pcpus, rr, policy));
        }
        List<TimelineAction> timeline = new ArrayList<>();
        if (raw.timeline() != null) {
            for (TimelineAction a : raw.timeline()) {
                timeline.add(a == null ? null : normalizeAction(a, host, pcpus, rr, policy));
            }
        }
        SchedulerSpec scheduler = new SchedulerSpec(policy.name(), policyParams,
                Hypervisor.fromJson(raw.scheduler().hypervisor()).map(Hypervisor::json).orElse(policy.hypervisor()),
                HostThreadsCheck.normalize(raw.scheduler().hostThreads(), registry));
        Map<String, Object> costs = ParameterValues.normalize(raw.costs(), CostModel.parameters());
        ExperimentSpec.StopCondition stop = raw.stopWhen() != null ? raw.stopWhen()
                : allFinite(vms, timeline) ? ExperimentSpec.StopCondition.ALL_COMPLETE
                        : ExperimentSpec.StopCondition.DURATION;
        long traceDefault = Math.max(1, Math.min(DEFAULT_TRACE_EVENTS, maxTraceEvents));
        TraceSpec trace = raw.trace() == null ? new TraceSpec(false, traceDefault)
                : new TraceSpec(raw.trace().enabled() != null ? raw.trace().enabled() : Boolean.FALSE,
                        raw.trace().maxEvents() != null ? raw.trace().maxEvents() : traceDefault);
        return new ExperimentSpec(
                raw.name() != null ? raw.name() : DEFAULT_NAME,
                raw.labels() != null ? new LinkedHashMap<>(raw.labels()) : new LinkedHashMap<>(),
                raw.seed() != null ? raw.seed() : DEFAULT_SEED,
                raw.durationSeconds() != null ? raw.durationSeconds() : DEFAULT_DURATION_SECONDS,
                stop, host, scheduler, costs, vms, timeline, trace);
    }

    /** The effective duration of a raw spec (its own or the default). */
    static double durationOf(ExperimentSpec raw) {
        return raw.durationSeconds() != null ? raw.durationSeconds() : DEFAULT_DURATION_SECONDS;
    }

    HostSpec normalizeHost(HostSpec h) {
        int sockets = orDefault(h.sockets(), 1);
        int cores = orDefault(h.coresPerSocket(), 1);
        int threads = orDefault(h.threadsPerCore(), 1);
        List<NumaNodeSpec> nodes = new ArrayList<>();
        if (h.numaNodes() == null || h.numaNodes().isEmpty()) {
            for (int s = 0; s < sockets; s++) {
                nodes.add(new NumaNodeSpec(List.of(s), DEFAULT_NODE_MEMORY_MB, DEFAULT_NODE_BANDWIDTH_MBPS));
            }
        } else {
            for (NumaNodeSpec n : h.numaNodes()) {
                nodes.add(new NumaNodeSpec(sortedDistinct(n.sockets()),
                        n.memoryMb() != null ? n.memoryMb() : DEFAULT_NODE_MEMORY_MB,
                        n.bandwidthMBps() != null ? n.bandwidthMBps() : DEFAULT_NODE_BANDWIDTH_MBPS));
            }
        }
        List<List<Integer>> distance = h.numaDistance();
        if (distance == null || distance.isEmpty()) {
            distance = new ArrayList<>();
            for (int i = 0; i < nodes.size(); i++) {
                List<Integer> row = new ArrayList<>();
                for (int j = 0; j < nodes.size(); j++) {
                    row.add(i == j ? LOCAL_DISTANCE : REMOTE_DISTANCE);
                }
                distance.add(List.copyOf(row));
            }
        }
        return new HostSpec(sockets, cores, threads, List.copyOf(nodes), List.copyOf(distance),
                orDefault(h.llcKbPerSocket(), DEFAULT_LLC_KB), orDefault(h.l2KbPerCore(), DEFAULT_L2_KB),
                orDefault(h.l1KbPerCore(), DEFAULT_L1_KB),
                h.smt() == null || h.smt(), h.numbering());
    }

    /**
     * The list, or null when absent or empty: for affinities an empty list means "not set" (all
     * pCPUs hard, the VM's own for a vCPU override), since generated clients send [] for absent arrays.
     */
    static List<Integer> given(List<Integer> list) {
        return list == null || list.isEmpty() ? null : list;
    }

    VmSpec normalizeVm(VmSpec vm, HostSpec host, int pcpus, InitialPlacement.Creation creation, PolicyDescriptor policy) {
        int vcpus = orDefault(vm.vcpus(), 1);
        List<Integer> hard = given(vm.hardAffinity()) != null ? sortedDistinct(vm.hardAffinity()) : allPcpus(pcpus);
        List<Integer> soft = vm.softAffinity() != null ? sortedDistinct(vm.softAffinity()) : List.of();
        List<VcpuAffinitySpec> overrides = new ArrayList<>();
        if (vm.vcpuAffinity() != null) {
            for (VcpuAffinitySpec o : vm.vcpuAffinity()) {
                overrides.add(new VcpuAffinitySpec(o.vcpu(), given(o.hard()) != null ? sortedDistinct(o.hard()) : hard,
                        given(o.soft()) != null ? sortedDistinct(o.soft()) : soft));
            }
        }
        List<List<Integer>> hardPerVcpu = new ArrayList<>();
        for (int i = 0; i < vcpus; i++) {
            hardPerVcpu.add(hardOf(i, hard, overrides));
        }
        List<Integer> given = given(vm.placement());
        String rule = vm.placementRule() != null ? vm.placementRule()
                : given != null ? InitialPlacement.EXPLICIT : InitialPlacement.HYPERVISOR_DEFAULT;
        List<Integer> placement = creation.place(rule, given, hardPerVcpu);
        int node = vm.numaNode() != null ? vm.numaNode() : nodeOfPcpu(host, placement.get(0));
        WorkloadSpec w = vm.workload();
        WorkloadDescriptor d = registry.workload(w.type()).orElseThrow();
        WorkloadSpec workload = new WorkloadSpec(w.type(), ParameterValues.normalize(w.params(), d.parameters()));
        Map<String, Object> schedParams = SchedParamsRules.normalizeVm(vm, policy);
        return new VmSpec(vm.name(), vcpus, orDefault(vm.weight(), DEFAULT_WEIGHT), orDefault(vm.cap(), 0), hard, soft,
                List.copyOf(overrides), orDefault(vm.memoryMb(), DEFAULT_MEMORY_MB), node, List.copyOf(placement),
                vm.startAtSeconds() != null ? vm.startAtSeconds() : 0.0, workload, schedParams,
                SchedParamsRules.normalizeVcpus(vm, schedParams, policy), rule, vm.memoryPlacement());
    }

    private TimelineAction normalizeAction(TimelineAction a, HostSpec host, int pcpus, InitialPlacement.Creation rr,
            PolicyDescriptor policy) {
        VmSpec newVm = a.action() == TimelineAction.Kind.CREATE_VM && a.newVm() != null
                ? normalizeVm(a.newVm(), host, pcpus, rr, policy) : null;
        String vm = a.vm() != null ? a.vm() : newVm != null ? newVm.name() : null;
        List<Integer> cpus = a.pcpus() != null ? sortedDistinct(a.pcpus()) : null;
        if (a.action() == TimelineAction.Kind.UNPIN && cpus == null) {
            cpus = allPcpus(pcpus);
        }
        if (a.action() == TimelineAction.Kind.SOFT_AFFINITY && cpus == null) {
            cpus = List.of();
        }
        Map<String, Object> params = a.action() == TimelineAction.Kind.SET_SCHED_PARAMS && a.params() != null
                ? SchedParamsRules.normalizeAction(a, policy) : null;
        return new TimelineAction(a.atSeconds(), a.action(), vm, a.vcpu(), cpus, a.weight(), a.cap(), newVm, params);
    }

    private boolean allFinite(List<VmSpec> vms, List<TimelineAction> timeline) {
        boolean anyFinite = false;
        List<VmSpec> all = new ArrayList<>(vms);
        for (TimelineAction a : timeline) {
            if (a != null && a.newVm() != null) {
                all.add(a.newVm());
            }
        }
        for (VmSpec vm : all) {
            WorkloadDescriptor d = registry.workload(vm.workload().type()).orElseThrow();
            if (!d.factory().apply(new Params(vm.workload().params())).isFinite()) {
                return false;
            }
            anyFinite = true;
        }
        return anyFinite;
    }

    /** Effective hard affinity of vCPU i. */
    public static List<Integer> hardOf(int vcpu, List<Integer> vmHard, List<VcpuAffinitySpec> overrides) {
        if (overrides != null) {
            for (VcpuAffinitySpec o : overrides) {
                if (o.vcpu() != null && o.vcpu() == vcpu && o.hard() != null) {
                    return o.hard();
                }
            }
        }
        return vmHard;
    }

    static int nodeOfPcpu(HostSpec host, int pcpu) {
        int socket = host.socketOfPcpu(pcpu);
        for (int n = 0; n < host.numaNodes().size(); n++) {
            if (host.numaNodes().get(n).sockets().contains(socket)) {
                return n;
            }
        }
        return 0;
    }

    static List<Integer> allPcpus(int n) {
        List<Integer> all = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            all.add(i);
        }
        return List.copyOf(all);
    }

    /**
     * The list's numbers ascending, each once, nulls dropped. A list already so (every affinity the API or a
     * builder writes as "all pCPUs") is copied as it is, in one pass; any other is sorted as ints. Per VM this
     * costs O(pCPUs) instead of a tree insert per pCPU, which made up to a fifth of a
     * 1,024-pCPU bench run (credit2, JFR samples).
     */
    static List<Integer> sortedDistinct(List<Integer> in) {
        if (strictlyAscending(in)) {
            return List.copyOf(in);
        }
        int[] values = new int[in.size()];
        int n = 0;
        for (Integer i : in) {
            if (i != null) {
                values[n++] = i;
            }
        }
        java.util.Arrays.sort(values, 0, n);
        List<Integer> out = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            if (k == 0 || values[k] != values[k - 1]) {
                out.add(values[k]);
            }
        }
        return List.copyOf(out);
    }

    private static boolean strictlyAscending(List<Integer> in) {
        Integer prev = null;
        for (Integer i : in) {
            if (i == null || (prev != null && i <= prev)) {
                return false;
            }
            prev = i;
        }
        return true;
    }

    private static int orDefault(Integer v, int def) {
        return v != null ? v : def;
    }
}
