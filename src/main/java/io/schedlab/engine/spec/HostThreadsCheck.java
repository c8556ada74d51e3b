package io.schedlab.engine.spec;

import io.schedlab.engine.workloads.WorkloadDescriptor;
import io.schedlab.engine.registry.Registry;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;

/**
 * Checks and normalizes {@code scheduler.hostThreads}: KVM only, names unique among themselves and the VMs, bounded
 * sizes; {@code serves} names distinct VMs of the spec; {@code cpus} distinct host CPUs.
 */
final class HostThreadsCheck {
    static final String POINTER = "/scheduler/hostThreads";
    /** A cgroup directory name, at most 64 characters (as the Linux policies' per-VM cgroup parameter). */
    static final Pattern CGROUP_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    /** Host thread groups per experiment. */
    static final int MAX_GROUPS = 64;
    /** Threads per group. */
    static final int MAX_THREADS = 1024;
    /** Linux nice range (include/linux/sched/prio.h MIN_NICE, MAX_NICE). */
    static final int MIN_NICE = -20;
    static final int MAX_NICE = 19;
    static final int DEFAULT_THREADS = 1;
    static final int DEFAULT_NICE = 0;
    /** Guests one group serves (a bound, not a source's figure). */
    static final int MAX_SERVES = 64;

    private HostThreadsCheck() {
    }

    /** Structure of the raw list; {@code checkWorkload} checks one workload at a pointer. */
    static void check(ExperimentSpec s, String hypervisor, int pcpus, BiConsumer<String, WorkloadSpec> checkWorkload,
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
        Set<String> vmNames = Set.copyOf(names);
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
            if (g.cgroup() != null && !g.cgroup().isEmpty() && !CGROUP_NAME.matcher(g.cgroup()).matches()) {
                out.add(new Violation(at + "/cgroup", "must match " + CGROUP_NAME.pattern()
                        + " (a cgroup directory name; absent or empty: the root group)"));
            }
            checkServes(at + "/serves", g.serves(), vmNames, out);
            checkCpus(at + "/cpus", g.cpus(), pcpus, out);
            checkWorkload.accept(at + "/workload", g.workload());
        }
    }

    private static void checkServes(String at, List<String> serves, Set<String> vmNames, List<Violation> out) {
        if (serves == null) {
            return;
        }
        if (serves.size() > MAX_SERVES) {
            out.add(new Violation(at, "must name at most " + MAX_SERVES + " VMs"));
            return;
        }
        Set<String> seen = new TreeSet<>();
        for (int k = 0; k < serves.size(); k++) {
            String vm = serves.get(k);
            if (vm == null || !vmNames.contains(vm)) {
                out.add(new Violation(at + "/" + k, "must name a VM of the spec's vms"));
            } else if (!seen.add(vm)) {
                out.add(new Violation(at + "/" + k, "duplicate VM '" + vm + "'"));
            }
        }
    }

    private static void checkCpus(String at, List<Integer> cpus, int pcpus, List<Violation> out) {
        if (cpus == null || cpus.isEmpty()) { // empty as absent: generated clients send [] for an unset list
            return;
        }
        if (cpus.size() > MAX_THREADS) {
            out.add(new Violation(at, "must list at most " + MAX_THREADS + " host CPUs"));
            return;
        }
        Set<Integer> seen = new TreeSet<>();
        for (int k = 0; k < cpus.size(); k++) {
            Integer c = cpus.get(k);
            if (c == null || c < 0 || (pcpus > 0 && c >= pcpus)) {
                out.add(new Violation(at + "/" + k, "must be a host CPU, 0.." + (pcpus - 1)));
            } else if (!seen.add(c)) {
                out.add(new Violation(at + "/" + k, "duplicate CPU " + c));
            }
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
                                d.parameters())), g.serves() == null ? List.of() : List.copyOf(g.serves()),
                        g.cpus() == null || g.cpus().isEmpty() ? null : List.copyOf(g.cpus()),
                        g.cgroup() == null || g.cgroup().isEmpty() ? null : g.cgroup()));
            }
        }
        return out;
    }
}
