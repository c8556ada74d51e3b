package io.schedlab.engine.registry;

import io.schedlab.engine.workloads.WorkloadDescriptor;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Explicit name -> descriptor maps for scheduler policies and workload types (no classpath
 * scanning), in registration order. The API lists and validates against this registry.
 */
public final class Registry {
    private final Map<String, PolicyDescriptor> policies = new LinkedHashMap<>();
    private final Map<String, WorkloadDescriptor> workloads = new LinkedHashMap<>();

    public Registry register(PolicyDescriptor policy) {
        if (policies.putIfAbsent(policy.name(), policy) != null) {
            throw new IllegalStateException("duplicate policy " + policy.name());
        }
        return this;
    }

    public Registry register(WorkloadDescriptor workload) {
        if (workloads.putIfAbsent(workload.type(), workload) != null) {
            throw new IllegalStateException("duplicate workload " + workload.type());
        }
        return this;
    }

    public List<PolicyDescriptor> policies() {
        return List.copyOf(policies.values());
    }

    public List<WorkloadDescriptor> workloads() {
        return List.copyOf(workloads.values());
    }

    public Optional<PolicyDescriptor> policy(String name) {
        return Optional.ofNullable(policies.get(name));
    }

    public Optional<WorkloadDescriptor> workload(String type) {
        return Optional.ofNullable(workloads.get(type));
    }


    Map<String, PolicyDescriptor> policyMap() {
        return Collections.unmodifiableMap(policies);
    }
}
