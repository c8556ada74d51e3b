package io.schedlab.engine.spec;

import io.schedlab.engine.costs.CostModel;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.params.InvalidParameterException;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.spec.SpecRules;
import io.schedlab.engine.workloads.WorkloadDescriptor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Checks every field of a raw spec against the registry and the {@link Limits}; each problem is a
 * {@link Violation} with a JSON pointer into the submitted document. Two passes: structure (types,
 * ranges, required fields, known names) on the raw spec, then cross references (affinity,
 * placement, timeline targets) on the normalized spec, whose list positions match the raw one.
 */
public final class SpecValidator {
    public static final int MAX_NAME_LENGTH = 200;
    public static final int MAX_LABELS = 64;
    public static final int MAX_LABEL_LENGTH = 256;
    /** All label keys and values together, in characters (the service stores labels in one column). */
    public static final int MAX_LABELS_TOTAL_LENGTH = 4096;
    public static final int MAX_SOCKETS = 64;
    public static final int MAX_CORES_PER_SOCKET = 1024;
    public static final int MAX_THREADS_PER_CORE = 8;
    /** Xen credit/credit2 weight range (xl sched-credit -w: 1..65535). */
    public static final int MAX_WEIGHT = 65_535;
    public static final int MAX_MEMORY_MB = 1 << 30;
    public static final double MAX_BANDWIDTH_MBPS = 10_000_000;
    public static final int MAX_CACHE_KB = 1 << 20;
    public static final int MAX_DISTANCE = 255;
    static final Pattern VM_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

    private final Registry registry;
    private final SpecNormalizer normalizer;

    public SpecValidator(Registry registry) {
        this.registry = registry;
        this.normalizer = new SpecNormalizer(registry);
    }

    /** The violations of a raw spec (empty when valid) and its normalized form when valid. */
    public Result validate(ExperimentSpec raw, Limits limits) {
        List<Violation> out = new ArrayList<>();
        if (raw == null) {
            out.add(new Violation("", "the experiment document is missing"));
            return new Result(null, out);
        }
        if (SpecSizes.check(raw, limits, out)) {
            return new Result(null, out); // sizes first: the passes below walk every list and build workloads
        }
        List<Violation> timelineProblems = new ArrayList<>();
        checkStructure(raw, limits, out, timelineProblems);
        if (!out.isEmpty()) {
            out.addAll(timelineProblems);
            return new Result(null, out);
        }
        // Timeline field problems do not stop normalization, so reference checks still run and
        // the caller sees every violation at once.
        ExperimentSpec normalized = normalizer.normalize(raw, limits.maxTraceEvents());
        checkReferences(normalized, limits, out);
        if (out.isEmpty()) {
            out.addAll(placementMatchesRule(raw, limits));
        }
        out.addAll(policyRules(raw, normalized));
        out.addAll(timelineProblems);
        return out.isEmpty() ? new Result(normalized, out) : new Result(null, out);
    }

    /**
     * A VM that gives both a placement and a rule other than explicit (a normalized spec sent back, say) must
     * give the placement that rule computes, so the result never credits a rule with pCPUs it did not choose.
     */
    private List<Violation> placementMatchesRule(ExperimentSpec raw, Limits limits) {
        List<Violation> out = new ArrayList<>();
        boolean any = false;
        List<VmSpec> stripped = new ArrayList<>();
        for (VmSpec vm : raw.vms()) {
            boolean ruled = vm != null && vm.placementRule() != null
                    && !InitialPlacement.EXPLICIT.equals(vm.placementRule()) && SpecNormalizer.given(vm.placement()) != null;
            any |= ruled;
            stripped.add(ruled ? withoutPlacement(vm) : vm);
        }
        if (!any) {
            return out;
        }
        ExperimentSpec recomputed = normalizer.normalize(new ExperimentSpec(raw.name(), raw.labels(), raw.seed(),
                raw.durationSeconds(), raw.stopWhen(), raw.host(), raw.scheduler(), raw.costs(), stripped,
                raw.timeline(), raw.trace()), limits.maxTraceEvents());
        for (int i = 0; i < raw.vms().size(); i++) {
            VmSpec vm = raw.vms().get(i);
            if (stripped.get(i) != vm) {
                List<Integer> want = recomputed.vms().get(i).placement();
                if (!want.equals(vm.placement())) {
                    out.add(new Violation("/vms/" + i + "/placement", "placementRule " + vm.placementRule()
                            + " places these vCPUs on " + want + "; drop placement, or set placementRule explicit"));
                }
            }
        }
        return out;
    }

    /**
     * Only the size checks of a raw spec (list lengths, name lengths): cheap, for a caller that is
     * about to copy the spec many times (a sweep's base) and must refuse an oversized one first.
     */
    public static List<Violation> sizeViolations(ExperimentSpec raw, Limits limits) {
        List<Violation> out = new ArrayList<>();
        if (raw != null) {
            SpecSizes.check(raw, limits, out);
        }
        return out;
    }

    /** The values of a VM's memoryPlacement. */
    static final List<String> MEMORY_PLACEMENTS = List.of(VmSpec.MEMORY_LOCAL, VmSpec.MEMORY_STRIPED);

    private static VmSpec withoutPlacement(VmSpec v) {
        return new VmSpec(v.name(), v.vcpus(), v.weight(), v.cap(), v.hardAffinity(), v.softAffinity(),
                v.vcpuAffinity(), v.memoryMb(), v.numaNode(), null, v.startAtSeconds(), v.workload(), v.schedParams(),
                v.vcpuSchedParams(), v.placementRule(), v.memoryPlacement());
    }

    /** Outcome: normalized spec (null when invalid) and violations sorted by pointer. */
    public record Result(ExperimentSpec normalized, List<Violation> violations) {
    }

    // ---------------------------------------------------------------- pass 1: structure

    private void checkStructure(ExperimentSpec s, Limits limits, List<Violation> out, List<Violation> timelineOut) {
        if (s.name() != null && (s.name().isBlank() || s.name().length() > MAX_NAME_LENGTH)) {
            out.add(new Violation("/name", "must be 1.." + MAX_NAME_LENGTH + " characters"));
        }
        if (s.labels() != null) {
            if (s.labels().size() > MAX_LABELS) {
                out.add(new Violation("/labels", "at most " + MAX_LABELS + " labels"));
            }
            long total = s.labels().entrySet().stream().mapToLong(e -> (e.getKey() == null ? 0 : e.getKey().length())
                    + (e.getValue() == null ? 0 : e.getValue().length())).sum();
            if (total > MAX_LABELS_TOTAL_LENGTH) {
                out.add(new Violation("/labels", "keys and values together must be at most " + MAX_LABELS_TOTAL_LENGTH
                        + " characters (these have " + total + ")"));
            }
            for (Map.Entry<String, String> e : new TreeMap<>(s.labels()).entrySet()) {
                if (e.getKey().isEmpty() || e.getKey().length() > MAX_LABEL_LENGTH || e.getValue() == null
                        || e.getValue().length() > MAX_LABEL_LENGTH) {
                    out.add(new Violation("/labels/" + ParameterValues.escape(e.getKey()),
                            "label keys and values must be 1.." + MAX_LABEL_LENGTH + " characters"));
                }
            }
        }
        if (s.durationSeconds() != null && !(s.durationSeconds() > 0
                && s.durationSeconds() <= limits.maxDurationSeconds())) {
            out.add(new Violation("/durationSeconds", "must be > 0 and <= " + limits.maxDurationSeconds()));
        }
        int pcpus = checkHost(s.host(), limits, out);
        checkScheduler(s.scheduler(), out);
        String hypervisor = HypervisorChoice.effective(s.scheduler(), registry);
        HostThreadsCheck.check(s, hypervisor, pcpus, (at, w) -> checkWorkload(at, w, out), out);
        KvmCapCheck.check(s, hypervisor, out);
        ParameterValues.check("/costs", s.costs(), CostModel.parameters(), out);
        double duration = SpecNormalizer.durationOf(s);
        PolicyDescriptor policy = s.scheduler() == null || s.scheduler().policy() == null ? null
                : registry.policy(s.scheduler().policy()).orElse(null);
        int vcpuTotal = 0;
        int vmTotal = 0;
        if (s.vms() == null || s.vms().isEmpty()) {
            out.add(new Violation("/vms", "at least one VM is required"));
        } else {
            for (int i = 0; i < s.vms().size(); i++) {
                VmSpec vm = s.vms().get(i);
                vcpuTotal += checkVm("/vms/" + i, vm, pcpus, duration, limits, policy, out, true);
                vmTotal++;
            }
        }
        if (s.timeline() != null) {
            if (s.timeline().size() > limits.maxTimelineActions()) {
                out.add(new Violation("/timeline", "at most " + limits.maxTimelineActions() + " actions"));
            } else {
                for (int i = 0; i < s.timeline().size(); i++) {
                    TimelineAction a = s.timeline().get(i);
                    String at = "/timeline/" + i;
                    if (a == null) {
                        out.add(new Violation(at, "must not be null"));
                        continue;
                    }
                    checkActionStructure(at, a, pcpus, duration, policy, timelineOut);
                    if (a.action() == TimelineAction.Kind.CREATE_VM && a.newVm() != null) {
                        vcpuTotal += checkVm(at + "/newVm", a.newVm(), pcpus, duration, limits, policy, out, false);
                        vmTotal++;
                    }
                }
            }
        }
        if (vmTotal > limits.maxVms()) {
            out.add(new Violation("/vms", "at most " + limits.maxVms() + " VMs in total (incl. create-vm)"));
        }
        if (vcpuTotal > limits.maxVcpus()) {
            out.add(new Violation("/vms", "at most " + limits.maxVcpus() + " vCPUs in total, got " + vcpuTotal));
        }
        if (s.trace() != null && s.trace().maxEvents() != null
                && (s.trace().maxEvents() < 1 || s.trace().maxEvents() > limits.maxTraceEvents())) {
            out.add(new Violation("/trace/maxEvents", "must be 1.." + limits.maxTraceEvents()));
        }
    }

    /** Returns the pCPU count (0 when the host is unusable). */
    private int checkHost(HostSpec h, Limits limits, List<Violation> out) {
        if (h == null) {
            out.add(new Violation("/host", "the host is required"));
            return 0;
        }
        int before = out.size();
        range(out, "/host/sockets", h.sockets(), 1, MAX_SOCKETS);
        range(out, "/host/coresPerSocket", h.coresPerSocket(), 1, MAX_CORES_PER_SOCKET);
        range(out, "/host/threadsPerCore", h.threadsPerCore(), 1, MAX_THREADS_PER_CORE);
        range(out, "/host/llcKbPerSocket", h.llcKbPerSocket(), 1, MAX_CACHE_KB);
        range(out, "/host/l2KbPerCore", h.l2KbPerCore(), 1, MAX_CACHE_KB);
        range(out, "/host/l1KbPerCore", h.l1KbPerCore(), 1, MAX_CACHE_KB);
        if (out.size() > before) {
            return 0;
        }
        int sockets = h.sockets() != null ? h.sockets() : 1;
        long pcpus = h.usablePcpus();
        if (pcpus > limits.maxPcpus()) {
            out.add(new Violation("/host", "at most " + limits.maxPcpus() + " pCPUs, got " + pcpus));
            return 0;
        }
        int nodes = sockets;
        if (h.numaNodes() != null && !h.numaNodes().isEmpty()) {
            nodes = h.numaNodes().size();
            if (nodes > sockets) {
                out.add(new Violation("/host/numaNodes", "at most one NUMA node per socket (" + sockets + ")"));
            }
            int[] owner = new int[sockets];
            java.util.Arrays.fill(owner, -1);
            for (int n = 0; n < h.numaNodes().size(); n++) {
                String at = "/host/numaNodes/" + n;
                NumaNodeSpec node = h.numaNodes().get(n);
                if (node == null) {
                    out.add(new Violation(at, "must not be null"));
                    continue;
                }
                if (node.sockets() == null || node.sockets().isEmpty()) {
                    out.add(new Violation(at + "/sockets", "must list at least one socket"));
                } else {
                    for (int k = 0; k < node.sockets().size(); k++) {
                        Integer sk = node.sockets().get(k);
                        if (sk == null || sk < 0 || sk >= sockets) {
                            out.add(new Violation(at + "/sockets/" + k, "no socket " + sk + " (0.." + (sockets - 1)
                                    + ")"));
                        } else if (owner[sk] >= 0 && owner[sk] != n) {
                            out.add(new Violation(at + "/sockets/" + k, "socket " + sk + " already in node "
                                    + owner[sk]));
                        } else {
                            owner[sk] = n;
                        }
                    }
                }
                range(out, at + "/memoryMb", node.memoryMb(), 1, MAX_MEMORY_MB);
                if (node.bandwidthMBps() != null && !(node.bandwidthMBps() > 0
                        && node.bandwidthMBps() <= MAX_BANDWIDTH_MBPS)) {
                    out.add(new Violation(at + "/bandwidthMBps", "must be > 0 and <= " + (long) MAX_BANDWIDTH_MBPS));
                }
            }
            for (int sk = 0; sk < sockets; sk++) {
                if (owner[sk] < 0) {
                    out.add(new Violation("/host/numaNodes", "socket " + sk + " belongs to no NUMA node"));
                }
            }
        }
        List<List<Integer>> d = h.numaDistance();
        if (d != null && !d.isEmpty()) {
            if (d.size() != nodes) {
                out.add(new Violation("/host/numaDistance", "must be a " + nodes + "x" + nodes + " matrix"));
            } else {
                for (int i = 0; i < nodes; i++) {
                    List<Integer> row = d.get(i);
                    if (row == null || row.size() != nodes) {
                        out.add(new Violation("/host/numaDistance/" + i, "row must have " + nodes + " entries"));
                        continue;
                    }
                    for (int j = 0; j < nodes; j++) {
                        Integer v = row.get(j);
                        String at = "/host/numaDistance/" + i + "/" + j;
                        if (v == null || v < SpecNormalizer.LOCAL_DISTANCE || v > MAX_DISTANCE) {
                            out.add(new Violation(at, "must be 10..255 (ACPI SLIT)"));
                        } else if (i == j && v != SpecNormalizer.LOCAL_DISTANCE) {
                            out.add(new Violation(at, "local distance must be 10 (ACPI SLIT)"));
                        }
                    }
                }
            }
        }
        return (int) pcpus;
    }

    private void checkScheduler(SchedulerSpec s, List<Violation> out) {
        if (s == null) {
            out.add(new Violation("/scheduler", "the scheduler is required"));
            return;
        }
        if (s.policy() == null) {
            out.add(new Violation("/scheduler/policy", "required; known: " + policyNames()));
            return;
        }
        PolicyDescriptor d = registry.policy(s.policy()).orElse(null);
        if (d == null) {
            out.add(new Violation("/scheduler/policy", "unknown policy '" + s.policy() + "'; known: " + policyNames()));
            return;
        }
        ParameterValues.check("/scheduler/params", s.params(), d.parameters(), out);
        HypervisorChoice.check(s, d, registry, out);
    }

    /** Structure of one VM; returns its vCPU count (0 if unusable). */
    private int checkVm(String at, VmSpec vm, int pcpus, double duration, Limits limits, PolicyDescriptor policy,
            List<Violation> out, boolean initial) {
        if (vm == null) {
            out.add(new Violation(at, "must not be null"));
            return 0;
        }
        if (vm.name() == null) {
            out.add(new Violation(at + "/name", "required"));
        } else if (!VM_NAME.matcher(vm.name()).matches()) {
            out.add(new Violation(at + "/name", "must match " + VM_NAME.pattern()));
        }
        int before = out.size();
        range(out, at + "/vcpus", vm.vcpus(), 1, limits.maxVcpus());
        int vcpus = out.size() > before ? 0 : vm.vcpus() != null ? vm.vcpus() : 1;
        range(out, at + "/weight", vm.weight(), 1, MAX_WEIGHT);
        if (vcpus > 0) {
            range(out, at + "/cap", vm.cap(), 0, 100 * vcpus);
        }
        range(out, at + "/memoryMb", vm.memoryMb(), 1, MAX_MEMORY_MB);
        if (vm.memoryPlacement() != null && !MEMORY_PLACEMENTS.contains(vm.memoryPlacement())) {
            out.add(new Violation(at + "/memoryPlacement", "must be one of " + MEMORY_PLACEMENTS));
        }
        if (pcpus > 0) {
            if (SpecNormalizer.given(vm.hardAffinity()) != null) { // [] = not set, as generated clients send it
                cpuList(out, at + "/hardAffinity", vm.hardAffinity(), pcpus, false);
            }
            if (vm.softAffinity() != null) {
                cpuList(out, at + "/softAffinity", vm.softAffinity(), pcpus, true);
            }
            if (vm.vcpuAffinity() != null) {
                Set<Integer> seen = new HashSet<>();
                if (vm.vcpuAffinity().size() > Math.max(vcpus, 1)) {
                    out.add(new Violation(at + "/vcpuAffinity", "more entries than vCPUs"));
                }
                for (int k = 0; k < vm.vcpuAffinity().size(); k++) {
                    VcpuAffinitySpec o = vm.vcpuAffinity().get(k);
                    String oat = at + "/vcpuAffinity/" + k;
                    if (o == null) {
                        out.add(new Violation(oat, "must not be null"));
                        continue;
                    }
                    if (o.vcpu() == null || o.vcpu() < 0 || o.vcpu() >= Math.max(vcpus, 1)) {
                        out.add(new Violation(oat + "/vcpu", "no vCPU " + o.vcpu() + " (0.." + (vcpus - 1) + ")"));
                    } else if (!seen.add(o.vcpu())) {
                        out.add(new Violation(oat + "/vcpu", "vCPU " + o.vcpu() + " listed twice"));
                    }
                    if (SpecNormalizer.given(o.hard()) != null) {
                        cpuList(out, oat + "/hard", o.hard(), pcpus, false);
                    }
                    if (o.soft() != null) {
                        cpuList(out, oat + "/soft", o.soft(), pcpus, true);
                    }
                }
            }
            if (vm.placement() != null && !vm.placement().isEmpty()) {
                if (vcpus > 0 && vm.placement().size() != vcpus) {
                    out.add(new Violation(at + "/placement", "must list one pCPU per vCPU (" + vcpus + ")"));
                } else {
                    for (int k = 0; k < vm.placement().size(); k++) {
                        Integer p = vm.placement().get(k);
                        if (p == null || p < 0 || p >= pcpus) {
                            out.add(new Violation(at + "/placement/" + k, "no pCPU " + p + " (0.." + (pcpus - 1)
                                    + ")"));
                        }
                    }
                }
            }
        }
        if (vm.placementRule() != null && !InitialPlacement.RULES.contains(vm.placementRule())) {
            out.add(new Violation(at + "/placementRule", "must be one of " + InitialPlacement.RULES));
        } else if (InitialPlacement.EXPLICIT.equals(vm.placementRule()) && SpecNormalizer.given(vm.placement()) == null) {
            out.add(new Violation(at + "/placementRule", "explicit needs placement (one pCPU per vCPU)"));
        }
        if (vm.numaNode() != null && vm.numaNode() < 0) {
            out.add(new Violation(at + "/numaNode", "must be >= 0"));
        }
        if (vm.startAtSeconds() != null && !(vm.startAtSeconds() >= 0 && vm.startAtSeconds() < duration)) {
            out.add(new Violation(at + "/startAtSeconds", "must be >= 0 and < durationSeconds (" + duration + ")"));
        }
        if (!initial && vm.startAtSeconds() != null && vm.startAtSeconds() != 0) {
            out.add(new Violation(at + "/startAtSeconds", "a VM created by the timeline starts at the action's time"));
        }
        checkWorkload(at + "/workload", vm.workload(), out);
        SchedParamsRules.checkVm(at, vm, vcpus, policy, out);
        return vcpus;
    }

    private void checkWorkload(String at, WorkloadSpec w, List<Violation> out) {
        if (w == null) {
            out.add(new Violation(at, "required; known types: " + workloadNames()));
            return;
        }
        if (w.type() == null) {
            out.add(new Violation(at + "/type", "required; known types: " + workloadNames()));
            return;
        }
        WorkloadDescriptor d = registry.workload(w.type()).orElse(null);
        if (d == null) {
            out.add(new Violation(at + "/type", "unknown workload type '" + w.type() + "'; known: "
                    + workloadNames()));
            return;
        }
        int before = out.size();
        ParameterValues.check(at + "/params", w.params(), d.parameters(), out);
        if (out.size() == before) {
            // Content checks only the workload itself can make (e.g. the trace CSV's rows): build it once.
            try {
                d.factory().apply(new Params(ParameterValues.normalize(w.params(), d.parameters())));
            } catch (IllegalArgumentException e) {
                String pointer = at + "/params"
                        + (e instanceof InvalidParameterException ipe ? "/" + ipe.parameter() : "");
                out.add(new Violation(pointer, e.getMessage()));
            }
        }
    }

    private void checkActionStructure(String at, TimelineAction a, int pcpus, double duration,
            PolicyDescriptor policy, List<Violation> out) {
        if (a.atSeconds() == null || !(a.atSeconds() >= 0 && a.atSeconds() <= duration)) {
            out.add(new Violation(at + "/atSeconds", "required, >= 0 and <= durationSeconds (" + duration + ")"));
        }
        if (a.action() == null) {
            out.add(new Violation(at + "/action", "required: pin, unpin, soft-affinity, set-weight, set-cap,"
                    + " create-vm, shutdown or set-sched-params"));
            return;
        }
        if (a.action() != TimelineAction.Kind.CREATE_VM && a.vm() == null) {
            out.add(new Violation(at + "/vm", "required"));
        }
        if (a.action() != TimelineAction.Kind.CREATE_VM && a.newVm() != null) {
            out.add(new Violation(at + "/newVm", "only allowed with create-vm"));
        }
        if (a.action() != TimelineAction.Kind.SET_SCHED_PARAMS && a.params() != null && !a.params().isEmpty()) {
            out.add(new Violation(at + "/params", "only allowed with set-sched-params"));
        }
        switch (a.action()) {
            case PIN -> {
                if (a.pcpus() == null || a.pcpus().isEmpty()) {
                    out.add(new Violation(at + "/pcpus", "required: the new hard affinity (non-empty)"));
                } else if (pcpus > 0) {
                    cpuList(out, at + "/pcpus", a.pcpus(), pcpus, false);
                }
            }
            case UNPIN -> {
            }
            case SOFT_AFFINITY -> {
                if (a.pcpus() != null && pcpus > 0) {
                    cpuList(out, at + "/pcpus", a.pcpus(), pcpus, true);
                }
            }
            case SET_WEIGHT -> {
                if (a.weight() == null) {
                    out.add(new Violation(at + "/weight", "required"));
                } else {
                    range(out, at + "/weight", a.weight(), 1, MAX_WEIGHT);
                }
            }
            case SET_CAP -> {
                if (a.cap() == null || a.cap() < 0) {
                    out.add(new Violation(at + "/cap", "required, >= 0 (percent of one pCPU; 0 = no cap)"));
                }
            }
            case CREATE_VM -> {
                if (a.newVm() == null) {
                    out.add(new Violation(at + "/newVm", "required for create-vm"));
                }
            }
            case SHUTDOWN -> {
            }
            case SET_SCHED_PARAMS -> SchedParamsRules.checkAction(at, a, policy, out);
            default -> throw new IllegalStateException();
        }
    }

    // ---------------------------------------------------------------- pass 2: references

    private void checkReferences(ExperimentSpec s, Limits limits, List<Violation> out) {
        int nodes = s.host().numaNodes().size();
        SchedParamsRules.Tracker schedParams = new SchedParamsRules.Tracker(
                registry.policy(s.scheduler().policy()).orElseThrow());
        Map<String, Integer> vcpusByName = new TreeMap<>();
        Map<String, Double> startByName = new TreeMap<>();
        for (int i = 0; i < s.vms().size(); i++) {
            VmSpec vm = s.vms().get(i);
            String at = "/vms/" + i;
            startByName.putIfAbsent(vm.name(), vm.startAtSeconds());
            if (vcpusByName.putIfAbsent(vm.name(), vm.vcpus()) != null) {
                out.add(new Violation(at + "/name", "duplicate VM name '" + vm.name() + "'"));
            }
            checkVmReferences(at, vm, nodes, out);
            schedParams.addVm(vm);
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < s.timeline().size(); i++) {
            TimelineAction a = s.timeline().get(i);
            if (a != null && a.atSeconds() != null && a.action() != null) {
                order.add(i); // incomplete actions were reported by the structure pass
            }
        }
        // Apply in time order (stable for equal times), as the simulator does.
        order.sort(Comparator.comparingDouble(i -> s.timeline().get(i).atSeconds()));
        for (int i : order) {
            TimelineAction a = s.timeline().get(i);
            String at = "/timeline/" + i;
            if (a.action() == TimelineAction.Kind.CREATE_VM) {
                VmSpec vm = a.newVm();
                if (vm == null) {
                    continue;
                }
                if (vcpusByName.putIfAbsent(vm.name(), vm.vcpus()) != null) {
                    out.add(new Violation(at + "/newVm/name", "duplicate VM name '" + vm.name() + "'"));
                }
                checkVmReferences(at + "/newVm", vm, nodes, out);
                schedParams.addVm(vm);
                continue;
            }
            Integer vcpus = a.vm() == null ? null : vcpusByName.get(a.vm());
            if (a.vm() == null) {
                continue;
            }
            if (vcpus == null) {
                out.add(new Violation(at + "/vm", "unknown VM '" + a.vm() + "' (at " + a.atSeconds()
                        + " s); known: " + String.join(", ", vcpusByName.keySet())));
                continue;
            }
            Double start = startByName.get(a.vm());
            // A negative time was already reported by the structure pass; comparing it to the start adds nothing.
            if (start != null && a.atSeconds() >= 0 && a.atSeconds() < start) {
                out.add(new Violation(at + "/atSeconds", "VM '" + a.vm() + "' starts at " + start + " s, after this"
                        + " action (" + a.atSeconds() + " s)"));
            }
            if (a.vcpu() != null && (a.vcpu() < 0 || a.vcpu() >= vcpus)) {
                out.add(new Violation(at + "/vcpu", "VM '" + a.vm() + "' has no vCPU " + a.vcpu() + " (0.."
                        + (vcpus - 1) + ")"));
            } else if (a.action() == TimelineAction.Kind.SET_SCHED_PARAMS) {
                schedParams.apply(at, a, out);
            }
            if (a.action() == TimelineAction.Kind.SET_CAP && a.cap() != null && a.cap() > 100 * vcpus) {
                out.add(new Violation(at + "/cap", "must be <= " + (100 * vcpus) + " (100 x vCPUs)"));
            }
        }
    }

    /** The scheduling policy's own rules over the whole experiment (its descriptor's {@link SpecRules}). */
    private List<Violation> policyRules(ExperimentSpec raw, ExperimentSpec normalized) {
        List<Violation> out = new ArrayList<>();
        PolicyDescriptor policy = registry.policy(normalized.scheduler().policy()).orElseThrow();
        for (SpecRules rules : policy.capabilities(SpecRules.class)) {
            out.addAll(rules.violations(raw, normalized));
        }
        return out;
    }

    private void checkVmReferences(String at, VmSpec vm, int nodes, List<Violation> out) {
        if (vm.numaNode() >= nodes) {
            out.add(new Violation(at + "/numaNode", "no NUMA node " + vm.numaNode() + " (0.." + (nodes - 1) + ")"));
        }
        for (int k = 0; k < vm.placement().size(); k++) {
            List<Integer> hard = SpecNormalizer.hardOf(k, vm.hardAffinity(), vm.vcpuAffinity());
            if (!hard.contains(vm.placement().get(k))) {
                out.add(new Violation(at + "/placement/" + k, "pCPU " + vm.placement().get(k)
                        + " is outside vCPU " + k + "'s hard affinity " + hard));
            }
        }
    }

    // ---------------------------------------------------------------- helpers

    private static void range(List<Violation> out, String at, Integer v, long min, long max) {
        if (v != null && (v < min || v > max)) {
            out.add(new Violation(at, "must be " + min + ".." + max + ", got " + v));
        }
    }

    private static void cpuList(List<Violation> out, String at, List<Integer> cpus, int pcpus, boolean mayBeEmpty) {
        if (cpus.isEmpty() && !mayBeEmpty) {
            out.add(new Violation(at, "must not be empty (a vCPU needs at least one pCPU)"));
            return;
        }
        if (cpus.size() > pcpus * 4 + 16) {
            out.add(new Violation(at, "too many entries"));
            return;
        }
        for (int k = 0; k < cpus.size(); k++) {
            Integer p = cpus.get(k);
            if (p == null || p < 0 || p >= pcpus) {
                out.add(new Violation(at + "/" + k, "no pCPU " + p + " (host has 0.." + (pcpus - 1) + ")"));
            }
        }
    }

    private String policyNames() {
        return registry.policies().stream().map(PolicyDescriptor::name).collect(Collectors.joining(", "));
    }

    private String workloadNames() {
        return registry.workloads().stream().map(WorkloadDescriptor::type).collect(Collectors.joining(", "));
    }
}
