package io.schedlab.engine.policies.arinc653;

import io.schedlab.engine.params.InvalidParameterException;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.spec.SpecRules;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.TimelineAction;
import io.schedlab.engine.spec.Violation;
import io.schedlab.engine.spec.VmSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The schedule's spec rules: it parses and fits its major frame ({@link Arinc653Schedule#from}), and every
 * minor frame names a vCPU the experiment creates (at start or by a timeline create-vm). Xen accepts a frame
 * for a domain that does not exist yet and idles it; here a name that never exists is a typo.
 */
final class Arinc653Rules implements SpecRules {
    private static final String AT = "/scheduler/params/";

    @Override
    public List<Violation> violations(ExperimentSpec raw, ExperimentSpec normalized) {
        List<Violation> out = new ArrayList<>();
        Arinc653Schedule schedule;
        try {
            schedule = Arinc653Schedule.from(new Params(normalized.scheduler().params()));
        } catch (InvalidParameterException e) {
            out.add(new Violation(AT + e.parameter(), e.getMessage()));
            return out;
        }
        Map<String, Integer> vcpus = vcpusByVm(normalized);
        for (int i = 0; i < schedule.entries().size(); i++) {
            Arinc653Schedule.Entry e = schedule.entries().get(i);
            Integer n = vcpus.get(e.vm());
            if (n == null) {
                out.add(new Violation(AT + Arinc653Schedule.SCHEDULE, "minor frame " + i + " names VM '" + e.vm()
                        + "', which the experiment never creates; known: " + String.join(", ", vcpus.keySet())));
            } else if (e.vcpu() >= n) {
                out.add(new Violation(AT + Arinc653Schedule.SCHEDULE, "minor frame " + i + ": VM '" + e.vm()
                        + "' has no vCPU " + e.vcpu() + " (0.." + (n - 1) + ")"));
            }
        }
        return out;
    }

    private static Map<String, Integer> vcpusByVm(ExperimentSpec s) {
        Map<String, Integer> out = new HashMap<>();
        for (VmSpec vm : s.vms()) {
            out.put(vm.name(), vm.vcpus());
        }
        if (s.timeline() != null) {
            for (TimelineAction a : s.timeline()) {
                if (a.action() == TimelineAction.Kind.CREATE_VM && a.newVm() != null) {
                    out.put(a.newVm().name(), a.newVm().vcpus());
                }
            }
        }
        return new java.util.TreeMap<>(out);
    }
}
