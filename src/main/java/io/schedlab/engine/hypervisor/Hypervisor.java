package io.schedlab.engine.hypervisor;

import io.schedlab.engine.params.Params;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The hypervisor between the simulator and the scheduler policy. {@code xen}: the policy is Xen's
 * scheduler behind xen/common/sched/core.c's schedule path; {@code kvm}: the policy is the host
 * Linux scheduler running one host thread per vCPU, and VM exits (pause-loop exiting and its
 * handler, virt/kvm/kvm_main.c) happen in this layer.
 */
public enum Hypervisor {
    XEN, KVM;

    /** Name as the experiment spells it ({@code scheduler.hypervisor}). */
    public String json() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The hypervisor of that name (any case), if known. */
    public static Optional<Hypervisor> fromJson(String name) {
        for (Hypervisor h : values()) {
            if (h.json().equalsIgnoreCase(name == null ? "" : name.trim())) {
                return Optional.of(h);
            }
        }
        return Optional.empty();
    }

    /** Every name, in declaration order. */
    public static List<String> names() {
        return java.util.Arrays.stream(values()).map(Hypervisor::json).toList();
    }

    /** This hypervisor's layer for one run, with the policy's normalized parameters. */
    public HypervisorLayer create(Params policyParams, HypervisorHost host) {
        return this == XEN ? new XenLayer(host) : KvmLayer.create(policyParams, host);
    }
}
