package io.schedlab.engine.spec;

import io.schedlab.engine.params.InvalidParameterException;
import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.registry.PolicyDescriptor;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Per-VM and per-vCPU scheduling parameters, checked and resolved the same way for every policy
 * against its descriptor ({@link PolicyDescriptor#vmParameters()}, {@link PolicyDescriptor#vcpuParameters()}).
 * A vCPU's effective parameters: the descriptor's vCPU defaults, overridden by the VM's {@code schedParams}
 * entries of the same name (Xen {@code xl sched-rtds -d DOM} sets every vCPU), overridden by its own
 * {@code vcpuSchedParams} entry ({@code xl sched-rtds -d DOM -v N}).
 */
public final class SchedParamsRules {

    private SchedParamsRules() {
    }

    // ---------------------------------------------------------------- structure

    /** Names, types and bounds of a raw VM's {@code schedParams} and {@code vcpuSchedParams}; then the cross-field rule. */
    static void checkVm(String at, VmSpec vm, int vcpus, PolicyDescriptor d, List<Violation> out) {
        if (d == null) {
            return;
        }
        int before = out.size();
        ParameterValues.check(at + "/schedParams", vm.schedParams(), d.vmParameters(), out);
        List<VcpuSchedParamsSpec> entries = vm.vcpuSchedParams();
        if (entries != null) {
            if (entries.size() > Math.max(vcpus, 1)) {
                out.add(new Violation(at + "/vcpuSchedParams", "more entries than vCPUs (" + vcpus + ")"));
                return;
            }
            Set<Integer> seen = new HashSet<>();
            for (int k = 0; k < entries.size(); k++) {
                VcpuSchedParamsSpec e = entries.get(k);
                String eat = at + "/vcpuSchedParams/" + k;
                if (e == null) {
                    out.add(new Violation(eat, "must not be null"));
                    continue;
                }
                if (e.vcpu() == null || e.vcpu() < 0 || e.vcpu() >= Math.max(vcpus, 1)) {
                    out.add(new Violation(eat + "/vcpu", "no vCPU " + e.vcpu() + " (0.." + (vcpus - 1) + ")"));
                } else if (!seen.add(e.vcpu())) {
                    out.add(new Violation(eat + "/vcpu", "vCPU " + e.vcpu() + " listed twice"));
                }
                ParameterValues.check(eat + "/params", e.params(), d.vcpuParameters(), out);
            }
        }
        if (out.size() > before) {
            return;
        }
        Map<String, Object> vmParams = ParameterValues.normalize(vm.schedParams(), d.vmParameters());
        rule(d, at + "/schedParams", vmParams, d.vmParameters(), out);
        if (entries != null) {
            for (int k = 0; k < entries.size(); k++) {
                rule(d, at + "/vcpuSchedParams/" + k + "/params", vcpuParams(d, vmParams, entries.get(k).params()),
                        d.vcpuParameters(), out);
            }
        }
    }

    /** Structure of a {@code set-sched-params} action: parameters known at the VM level, or the vCPU level with {@code vcpu}. */
    static void checkAction(String at, TimelineAction a, PolicyDescriptor d, List<Violation> out) {
        if (a.params() == null || a.params().isEmpty()) {
            out.add(new Violation(at + "/params", "required: the parameters to change"));
            return;
        }
        if (d != null) {
            ParameterValues.check(at + "/params", a.params(), a.vcpu() == null ? d.vmParameters() : d.vcpuParameters(),
                    out);
        }
    }

    // ---------------------------------------------------------------- normalization

    /** The VM's parameters with every default filled in. */
    static Map<String, Object> normalizeVm(VmSpec vm, PolicyDescriptor d) {
        return ParameterValues.normalize(vm.schedParams(), d.vmParameters());
    }

    /** The VM's per-vCPU entries in their given order, each with its complete effective parameters. */
    static List<VcpuSchedParamsSpec> normalizeVcpus(VmSpec vm, Map<String, Object> vmParams, PolicyDescriptor d) {
        List<VcpuSchedParamsSpec> out = new ArrayList<>();
        if (vm.vcpuSchedParams() != null) {
            for (VcpuSchedParamsSpec e : vm.vcpuSchedParams()) {
                out.add(new VcpuSchedParamsSpec(e.vcpu(), vcpuParams(d, vmParams, e.params())));
            }
        }
        return List.copyOf(out);
    }

    /** The parameters of a {@code set-sched-params} action, converted (only the given names). */
    static Map<String, Object> normalizeAction(TimelineAction a, PolicyDescriptor d) {
        return ParameterValues.convertGiven(a.params(), a.vcpu() == null ? d.vmParameters() : d.vcpuParameters());
    }

    // ---------------------------------------------------------------- resolution (validator and simulator)

    /** Effective parameters of vCPU {@code index} of a normalized VM. */
    public static Map<String, Object> vcpuParams(PolicyDescriptor d, VmSpec normalizedVm, int index) {
        if (normalizedVm.vcpuSchedParams() != null) {
            for (VcpuSchedParamsSpec e : normalizedVm.vcpuSchedParams()) {
                if (e.vcpu() == index) {
                    return e.params();
                }
            }
        }
        return vcpuParams(d, normalizedVm.schedParams(), null);
    }

    /** {@code current} with the {@code changes} it declares replaced (a VM-level change carries its vCPU-level names down). */
    public static Map<String, Object> merge(Map<String, Object> current, Map<String, Object> changes,
            List<ParameterSpec> specs) {
        Map<String, Object> out = new LinkedHashMap<>(current);
        out.putAll(ParameterValues.convertGiven(changes, specs));
        return out;
    }

    private static Map<String, Object> vcpuParams(PolicyDescriptor d, Map<String, Object> vmParams,
            Map<String, Object> own) {
        Map<String, Object> given = new LinkedHashMap<>();
        if (vmParams != null) {
            given.putAll(ParameterValues.convertGiven(vmParams, d.vcpuParameters()));
        }
        if (own != null) {
            given.putAll(own);
        }
        return ParameterValues.normalize(given, d.vcpuParameters());
    }

    /** Runs the descriptor's cross-field rule; false (and one violation) when it fails. */
    private static boolean rule(PolicyDescriptor d, String at, Map<String, Object> params, List<ParameterSpec> specs,
            List<Violation> out) {
        if (specs.isEmpty()) {
            return true;
        }
        try {
            d.schedParamsCheck().accept(new Params(params));
            return true;
        } catch (InvalidParameterException e) {
            out.add(new Violation(at + "/" + ParameterValues.escape(e.parameter()), e.getMessage()));
            return false;
        }
    }

    // ---------------------------------------------------------------- timeline changes in time order

    /** Follows every VM's parameters through the timeline (in time order) so each change is checked against the values it meets. */
    static final class Tracker {
        private final PolicyDescriptor d;
        private final Map<String, Map<String, Object>> vmParams = new TreeMap<>();
        private final Map<String, List<Map<String, Object>>> vcpuParams = new TreeMap<>();

        Tracker(PolicyDescriptor d) {
            this.d = d;
        }

        void addVm(VmSpec normalized) {
            vmParams.putIfAbsent(normalized.name(), normalized.schedParams());
            List<Map<String, Object>> vcpus = new ArrayList<>();
            for (int i = 0; i < normalized.vcpus(); i++) {
                vcpus.add(vcpuParams(d, normalized, i));
            }
            vcpuParams.putIfAbsent(normalized.name(), vcpus);
        }

        /** Applies a {@code set-sched-params} whose VM and vCPU references were found valid. */
        void apply(String at, TimelineAction a, List<Violation> out) {
            List<Map<String, Object>> vcpus = vcpuParams.get(a.vm());
            if (vcpus == null || a.params() == null) {
                return;
            }
            String pointer = at + "/params";
            // A rejected change is not applied, so later actions are checked against valid values only.
            if (a.vcpu() == null) {
                Map<String, Object> vm = merge(vmParams.get(a.vm()), a.params(), d.vmParameters());
                List<Map<String, Object>> changed = new ArrayList<>();
                boolean ok = rule(d, pointer, vm, d.vmParameters(), out);
                for (int i = 0; ok && i < vcpus.size(); i++) {
                    changed.add(merge(vcpus.get(i), a.params(), d.vcpuParameters()));
                    ok = rule(d, pointer, changed.get(i), d.vcpuParameters(), out); // one violation per action
                }
                if (ok) {
                    vmParams.put(a.vm(), vm);
                    for (int i = 0; i < vcpus.size(); i++) {
                        vcpus.set(i, changed.get(i));
                    }
                }
            } else {
                Map<String, Object> v = merge(vcpus.get(a.vcpu()), a.params(), d.vcpuParameters());
                if (rule(d, pointer, v, d.vcpuParameters(), out)) {
                    vcpus.set(a.vcpu(), v);
                }
            }
        }
    }
}
