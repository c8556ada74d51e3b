package io.schedlab.engine.registry;

import io.schedlab.engine.policies.SchedulerPolicy;
import java.util.List;
import java.util.function.Function;

/**
 * A scheduler policy in the registry: name, one-line description, parameters, factory from normalized
 * params, and the hypervisor it schedules for ({@code xen} or {@code kvm}; an experiment's default).
 */
public record PolicyDescriptor(String name, String description, List<ParameterSpec> parameters,
        Function<Params, SchedulerPolicy> factory, String hypervisor) {

    /** A Xen scheduler. */
    public PolicyDescriptor(String name, String description, List<ParameterSpec> parameters,
            Function<Params, SchedulerPolicy> factory) {
        this(name, description, parameters, factory, "xen");
    }
}
