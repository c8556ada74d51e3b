package io.schedlab.engine.registry;

import io.schedlab.engine.params.Params;
import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.InvalidParameterException;
import io.schedlab.engine.policies.SchedulerPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

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
 * @param capabilities optional capabilities of the policy known before it runs (spec rules, {@link CostHints})
 */
public record PolicyDescriptor(String name, String description, List<ParameterSpec> parameters,
        Function<Params, SchedulerPolicy> factory, String hypervisor, List<ParameterSpec> vmParameters,
        List<ParameterSpec> vcpuParameters, Consumer<Params> schedParamsCheck, List<StatisticSpec> statistics,
        List<DescriptorCapability> capabilities) {

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
        this(name, description, parameters, factory, hypervisor, List.of(), List.of(), NO_RULE, List.of(), List.of());
    }

    /** This descriptor with per-VM and per-vCPU parameters and their cross-field rule. */
    public PolicyDescriptor withSchedParams(List<ParameterSpec> vm, List<ParameterSpec> vcpu, Consumer<Params> rule) {
        return new PolicyDescriptor(name, description, parameters, factory, hypervisor, List.copyOf(vm),
                List.copyOf(vcpu), rule == null ? NO_RULE : rule, statistics, capabilities);
    }

    /** This descriptor with the statistics its policy reports. */
    public PolicyDescriptor withStatistics(List<StatisticSpec> specs) {
        return new PolicyDescriptor(name, description, parameters, factory, hypervisor, vmParameters, vcpuParameters,
                schedParamsCheck, List.copyOf(specs), capabilities);
    }

    /** This descriptor with one more capability. */
    public PolicyDescriptor with(DescriptorCapability capability) {
        List<DescriptorCapability> all = new ArrayList<>(capabilities);
        all.add(capability);
        return new PolicyDescriptor(name, description, parameters, factory, hypervisor, vmParameters, vcpuParameters,
                schedParamsCheck, statistics, List.copyOf(all));
    }

    /** This descriptor with {@code extra} parameters after its own (those every policy of a hypervisor takes). */
    public PolicyDescriptor withParameters(List<ParameterSpec> extra) {
        List<ParameterSpec> all = new ArrayList<>(parameters);
        all.addAll(extra);
        return new PolicyDescriptor(name, description, List.copyOf(all), factory, hypervisor, vmParameters,
                vcpuParameters, schedParamsCheck, statistics, capabilities);
    }

    /** Every capability of the given type this descriptor carries, in the order they were added. */
    public <T extends DescriptorCapability> List<T> capabilities(Class<T> type) {
        return capabilities.stream().filter(type::isInstance).map(type::cast).toList();
    }

    /** The first capability of the given type, if the descriptor carries one. */
    public <T extends DescriptorCapability> Optional<T> capability(Class<T> type) {
        return capabilities(type).stream().findFirst();
    }
}
