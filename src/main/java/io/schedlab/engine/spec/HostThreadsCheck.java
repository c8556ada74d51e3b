package io.schedlab.engine.spec;

import io.schedlab.engine.workloads.WorkloadDescriptor;
import io.schedlab.engine.registry.Registry;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;

/** Checks and normalizes {@code scheduler.hostThreads}: KVM only, names unique among themselves and the VMs, bounded sizes. */
final class HostThreadsCheck {
    static final String POINTER = "/scheduler/hostThreads";
    /** Host thread groups per experiment. */
    static final int MAX_GROUPS = 64;
    /** Threads per group. */
    static final int MAX_THREADS = 1024;
    /** Linux nice range (include/linux/sched/prio.h MIN_NICE, MAX_NICE). */
    static final int MIN_NICE = -20;
    static final int MAX_NICE = 19;
    static final int DEFAULT_THREADS = 1;
    static final int DEFAULT_NICE = 0;

    private HostThreadsCheck() {
    }

    /** Structure of the raw list; {@code checkWorkload} checks one workload at a pointer. */
    static void check(ExperimentSpec s, String hypervisor, BiConsumer<String, WorkloadSpec> checkWorkload,
            List<Violation> out) {
        List<HostThreadSpec> groups = s.scheduler() == null ? null : s.scheduler().hostThreads();
        if (groups == null || groups.isEmpty()) {
            return;
        }
        if (!"kvm".equals(hypervisor)) {
            out.add(new Violation(POINTER, "host threads are scheduled by a Linux host: only under hypervisor kvm"));
            return;
        }
        if (groups.size() > MAX_GROUPS) {
            out.add(new Violation(POINTER, "at most " + MAX_GROUPS + " host thread groups"));
            return;
        }
        Set<String> names = new TreeSet<>();
        if (s.vms() != null) {
            s.vms().stream().filter(v -> v != null && v.name() != null).forEach(v -> names.add(v.name()));
        }
        for (int i = 0; i < groups.size(); i++) {
            String at = POINTER + "/" + i;
            HostThreadSpec g = groups.get(i);
            if (g == null) {
                out.add(new Violation(at, "must not be null"));
                continue;
            }
            if (g.name() == null) {
                out.add(new Violation(at + "/name", "required"));
            } else if (!SpecValidator.VM_NAME.matcher(g.name()).matches()) {
                out.add(new Violation(at + "/name", "must match " + SpecValidator.VM_NAME.pattern()));
            } else if (!names.add(g.name())) {
                out.add(new Violation(at + "/name", "duplicate name '" + g.name() + "' (VM and host thread names are one set)"));
            }
            if (g.threads() != null && (g.threads() < 1 || g.threads() > MAX_THREADS)) {
                out.add(new Violation(at + "/threads", "must be 1.." + MAX_THREADS));
            }
            if (g.nice() != null && (g.nice() < MIN_NICE || g.nice() > MAX_NICE)) {
                out.add(new Violation(at + "/nice", "must be " + MIN_NICE + ".." + MAX_NICE + " (Linux nice)"));
            }
            checkWorkload.accept(at + "/workload", g.workload());
        }
    }

    /** Every default filled in (an empty list when absent). */
    static List<HostThreadSpec> normalize(List<HostThreadSpec> groups, Registry registry) {
        List<HostThreadSpec> out = new ArrayList<>();
        if (groups != null) {
            for (HostThreadSpec g : groups) {
                WorkloadDescriptor d = registry.workload(g.workload().type()).orElseThrow();
                out.add(new HostThreadSpec(g.name(), g.threads() != null ? g.threads() : DEFAULT_THREADS,
                        g.nice() != null ? g.nice() : DEFAULT_NICE,
                        new WorkloadSpec(g.workload().type(), ParameterValues.normalize(g.workload().params(),
                                d.parameters()))));
            }
        }
        return out;
    }
}
