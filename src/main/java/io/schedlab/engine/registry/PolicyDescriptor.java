package io.schedlab.engine.registry;

import io.schedlab.engine.policies.SchedulerPolicy;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
/**
 * A scheduler policy in the registry: name, one-line description, parameters, factory from normalized params,
 * the hypervisor it schedules for ({@code xen} or {@code kvm}; an experiment's default), and the per-VM /
 * per-vCPU scheduling parameters it accepts ({@code vms[i].schedParams}, {@code vms[i].vcpuSchedParams},
 * timeline {@code set-sched-params}).
 *
 * @param hypervisor {@code xen} or {@code kvm}
 * @param vmParameters parameters of a whole VM (Xen: {@code xl sched-* -d DOM}); a name also declared per vCPU
 *     sets that vCPU parameter for every vCPU of the VM
 * @param vcpuParameters parameters of one vCPU (Xen: {@code xl sched-rtds -d DOM -v N})
 * @param schedParamsCheck cross-field rule over one complete set of VM or vCPU parameters (e.g. budget <= period);
 *     throws {@link InvalidParameterException} naming the field at fault; never null
 * @param statistics the names the policy reports in {@code policyStatistics} (run level and per vCPU)
 */
public record PolicyDescriptor(String name, String description, List<ParameterSpec> parameters,
        Function<Params, SchedulerPolicy> factory, String hypervisor, List<ParameterSpec> vmParameters,
        List<ParameterSpec> vcpuParameters, Consumer<Params> schedParamsCheck, List<StatisticSpec> statistics) {

    private static final Consumer<Params> NO_RULE = p -> {
    };

    /** A Xen scheduler without per-VM or per-vCPU scheduling parameters. */
    public PolicyDescriptor(String name, String description, List<ParameterSpec> parameters,
            Function<Params, SchedulerPolicy> factory) {
        this(name, description, parameters, factory, "xen");
    }

    /** A scheduler for {@code hypervisor} without per-VM or per-vCPU scheduling parameters. */
    public PolicyDescriptor(String name, String description, List<ParameterSpec> parameters,
            Function<Params, SchedulerPolicy> factory, String hypervisor) {
        this(name, description, parameters, factory, hypervisor, List.of(), List.of(), NO_RULE, List.of());
    }

    /** This descriptor with per-VM and per-vCPU parameters and their cross-field rule. */
    public PolicyDescriptor withSchedParams(List<ParameterSpec> vm, List<ParameterSpec> vcpu, Consumer<Params> rule) {
        return new PolicyDescriptor(name, description, parameters, factory, hypervisor, List.copyOf(vm),
                List.copyOf(vcpu), rule == null ? NO_RULE : rule, statistics);
    }

    /** This descriptor with the statistics its policy reports. */
    public PolicyDescriptor withStatistics(List<StatisticSpec> specs) {
        return new PolicyDescriptor(name, description, parameters, factory, hypervisor, vmParameters, vcpuParameters,
                schedParamsCheck, List.copyOf(specs));
    }
}
