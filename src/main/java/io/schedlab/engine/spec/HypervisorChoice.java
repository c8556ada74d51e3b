package io.schedlab.engine.spec;

import io.schedlab.engine.hypervisor.Hypervisor;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.registry.Registry;
import java.util.List;

/** Checks {@code scheduler.hypervisor}: a known hypervisor that offers the chosen policy. */
final class HypervisorChoice {
    static final String POINTER = "/scheduler/hypervisor";

    private HypervisorChoice() {
    }

    /** The hypervisor a raw scheduler spec runs under (named or the policy's own), or null when unknown. */
    static String effective(SchedulerSpec s, Registry registry) {
        if (s == null || s.policy() == null) {
            return null;
        }
        if (s.hypervisor() != null) {
            return Hypervisor.fromJson(s.hypervisor()).map(Hypervisor::json).orElse(null);
        }
        return registry.policy(s.policy()).map(PolicyDescriptor::hypervisor).orElse(null);
    }

    static void check(SchedulerSpec s, PolicyDescriptor policy, Registry registry, List<Violation> out) {
        if (s.hypervisor() == null) {
            return;
        }
        Hypervisor h = Hypervisor.fromJson(s.hypervisor()).orElse(null);
        if (h == null) {
            out.add(new Violation(POINTER, "unknown hypervisor '" + s.hypervisor() + "'; known: " + Hypervisor.names()));
        } else if (!h.json().equals(policy.hypervisor())) {
            List<String> offered = registry.policies().stream().filter(p -> h.json().equals(p.hypervisor()))
                    .map(PolicyDescriptor::name).toList();
            out.add(new Violation(POINTER, "policy '" + policy.name() + "' schedules for " + policy.hypervisor()
                    + ", not " + h.json() + "; " + h.json() + " offers " + offered));
        }
    }
}
