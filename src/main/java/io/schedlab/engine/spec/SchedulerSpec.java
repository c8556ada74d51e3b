package io.schedlab.engine.spec;

import java.util.Map;

/**
 * The scheduler policy by registry name, with its parameters (validated against the registry), and
 * the hypervisor it runs under ({@code xen} or {@code kvm}; absent = the policy's own).
 */
public record SchedulerSpec(String policy, Map<String, Object> params, String hypervisor) {

    /** Policy and parameters, under the policy's own hypervisor. */
    public SchedulerSpec(String policy, Map<String, Object> params) {
        this(policy, params, null);
    }
}
