package io.schedlab.engine.policies.credit2;

import io.schedlab.engine.policies.xen.XenVersion;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.TimelineAction;
import io.schedlab.engine.spec.Violation;
import io.schedlab.engine.spec.VmSpec;
import java.util.ArrayList;
import java.util.List;

/** credit2 spec rules beyond parameter bounds (a {@link io.schedlab.engine.spec.SpecRules} of its descriptor). */
final class Credit2CapRules {
    private Credit2CapRules() {
    }

    /**
     * Spec rule of credit2 that parameter bounds cannot express: caps (VM cap or a set-cap action
     * with cap > 0) need xenVersion >= 4.10, when credit2 gained caps.
     */
    static List<Violation> violations(ExperimentSpec s) {
        List<Violation> out = new ArrayList<>();
        if (s.scheduler() == null) {
            return out;
        }
        Object raw = s.scheduler().params() == null ? null : s.scheduler().params().get("xenVersion");
        XenVersion version;
        try {
            version = XenVersion.parse(raw == null ? "latest" : String.valueOf(raw));
        } catch (RuntimeException e) {
            return out; // reported by the parameter check
        }
        if (version.caps()) {
            return out;
        }
        String why = "caps need xenVersion >= 4.10 (credit2 gained caps in Xen 4.10); xenVersion is " + version;
        if (s.vms() != null) {
            for (int i = 0; i < s.vms().size(); i++) {
                VmSpec vm = s.vms().get(i);
                if (vm != null && vm.cap() != null && vm.cap() > 0) {
                    out.add(new Violation("/vms/" + i + "/cap", why));
                }
            }
        }
        if (s.timeline() != null) {
            for (int i = 0; i < s.timeline().size(); i++) {
                TimelineAction a = s.timeline().get(i);
                if (a != null && a.action() == TimelineAction.Kind.SET_CAP && a.cap() != null && a.cap() > 0) {
                    out.add(new Violation("/timeline/" + i + "/cap", why));
                }
            }
        }
        return out;
    }

}
