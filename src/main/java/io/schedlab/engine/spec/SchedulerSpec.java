package io.schedlab.engine.spec;

import java.util.List;
import java.util.Map;

/**
 * The scheduler policy by registry name, with its parameters (validated against the registry), the
 * hypervisor it runs under ({@code xen} or {@code kvm}; absent = the policy's own), and under KVM the
 * host threads that are not vCPUs ({@code hostThreads}, empty by default).
 */
public record SchedulerSpec(String policy, Map<String, Object> params, String hypervisor,
        List<HostThreadSpec> hostThreads) {

    /** Policy and parameters, under the policy's own hypervisor. */
    public SchedulerSpec(String policy, Map<String, Object> params) {
        this(policy, params, null, null);
    }

    /** Policy, parameters and hypervisor, without host threads. */
    public SchedulerSpec(String policy, Map<String, Object> params, String hypervisor) {
        this(policy, params, hypervisor, null);
    }
}
