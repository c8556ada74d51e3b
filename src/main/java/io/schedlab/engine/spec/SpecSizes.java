package io.schedlab.engine.spec;

import java.util.List;
import java.util.Map;

/**
 * The first pass over a raw spec: every list a user sizes (VMs, timeline, labels, NUMA nodes and
 * distances, affinities, placements, per-vCPU entries, host thread groups) and every name the
 * validator would echo, against its limit. It reads only sizes and lengths; while one is over, the
 * element checks (which build each VM's workload, or one violation per bad entry) do not run, so an
 * oversized list costs no more than reading the body did.
 */
final class SpecSizes {

    /** Longest policy, hypervisor, workload type or VM reference: names are at most 64 characters. */
    static final int MAX_IDENTIFIER_LENGTH = 64;

    private final Limits limits;
    private final List<Violation> out;

    private SpecSizes(Limits limits, List<Violation> out) {
        this.limits = limits;
        this.out = out;
    }

    /** Adds a violation for every size over its limit; returns whether there was one. */
    static boolean check(ExperimentSpec s, Limits limits, List<Violation> out) {
        int before = out.size();
        new SpecSizes(limits, out).spec(s);
        return out.size() > before;
    }

    private void spec(ExperimentSpec s) {
        if (s.name() != null && s.name().length() > SpecValidator.MAX_NAME_LENGTH) {
            out.add(new Violation("/name", "must be 1.." + SpecValidator.MAX_NAME_LENGTH + " characters"));
        }
        count("/labels", s.labels(), SpecValidator.MAX_LABELS, "labels");
        if (s.host() != null) {
            count("/host/numaNodes", s.host().numaNodes(), SpecValidator.MAX_SOCKETS, "NUMA nodes (one per socket)");
            if (s.host().numaNodes() != null) {
                for (int n = 0; n < s.host().numaNodes().size(); n++) {
                    NumaNodeSpec node = s.host().numaNodes().get(n);
                    count("/host/numaNodes/" + n + "/sockets", node == null ? null : node.sockets(),
                            SpecValidator.MAX_SOCKETS, "sockets");
                }
            }
            List<List<Integer>> d = s.host().numaDistance();
            if (!count("/host/numaDistance", d, SpecValidator.MAX_SOCKETS, "rows") && d != null) {
                for (int i = 0; i < d.size(); i++) {
                    count("/host/numaDistance/" + i, d.get(i), SpecValidator.MAX_SOCKETS, "entries");
                }
            }
        }
        if (s.scheduler() != null) {
            text("/scheduler/policy", s.scheduler().policy(), MAX_IDENTIFIER_LENGTH);
            text("/scheduler/hypervisor", s.scheduler().hypervisor(), MAX_IDENTIFIER_LENGTH);
            List<HostThreadSpec> groups = s.scheduler().hostThreads();
            if (!count(HostThreadsCheck.POINTER, groups, HostThreadsCheck.MAX_GROUPS, "host thread groups")
                    && groups != null) {
                for (int i = 0; i < groups.size(); i++) {
                    HostThreadSpec g = groups.get(i);
                    if (g != null) {
                        count(HostThreadsCheck.POINTER + "/" + i + "/serves", g.serves(), HostThreadsCheck.MAX_SERVES,
                                "VMs");
                        count(HostThreadsCheck.POINTER + "/" + i + "/cpus", g.cpus(), HostThreadsCheck.MAX_THREADS,
                                "CPUs");
                        if (g.serves() != null) {
                            for (int k = 0; k < Math.min(g.serves().size(), HostThreadsCheck.MAX_SERVES); k++) {
                                text(HostThreadsCheck.POINTER + "/" + i + "/serves/" + k, g.serves().get(k),
                                        MAX_IDENTIFIER_LENGTH);
                            }
                        }
                    }
                    if (g != null && g.workload() != null) {
                        text(HostThreadsCheck.POINTER + "/" + i + "/workload/type", g.workload().type(),
                                MAX_IDENTIFIER_LENGTH);
                    }
                }
            }
        }
        if (!count("/vms", s.vms(), limits.maxVms(), "VMs") && s.vms() != null) {
            for (int i = 0; i < s.vms().size(); i++) {
                vm("/vms/" + i, s.vms().get(i));
            }
        }
        if (!count("/timeline", s.timeline(), limits.maxTimelineActions(), "actions") && s.timeline() != null) {
            for (int i = 0; i < s.timeline().size(); i++) {
                TimelineAction a = s.timeline().get(i);
                if (a != null) {
                    String at = "/timeline/" + i;
                    text(at + "/vm", a.vm(), MAX_IDENTIFIER_LENGTH);
                    count(at + "/pcpus", a.pcpus(), cpuListLimit(), "pCPUs");
                    vm(at + "/newVm", a.newVm());
                }
            }
        }
    }

    private void vm(String at, VmSpec vm) {
        if (vm == null) {
            return;
        }
        int cpus = cpuListLimit();
        count(at + "/hardAffinity", vm.hardAffinity(), cpus, "pCPUs");
        count(at + "/softAffinity", vm.softAffinity(), cpus, "pCPUs");
        count(at + "/placement", vm.placement(), limits.maxVcpus(), "entries, one per vCPU");
        count(at + "/vcpuSchedParams", vm.vcpuSchedParams(), limits.maxVcpus(), "entries, one per vCPU");
        if (!count(at + "/vcpuAffinity", vm.vcpuAffinity(), limits.maxVcpus(), "entries, one per vCPU")
                && vm.vcpuAffinity() != null) {
            for (int k = 0; k < vm.vcpuAffinity().size(); k++) {
                VcpuAffinitySpec o = vm.vcpuAffinity().get(k);
                if (o != null) {
                    count(at + "/vcpuAffinity/" + k + "/hard", o.hard(), cpus, "pCPUs");
                    count(at + "/vcpuAffinity/" + k + "/soft", o.soft(), cpus, "pCPUs");
                }
            }
        }
        if (vm.workload() != null) {
            text(at + "/workload/type", vm.workload().type(), MAX_IDENTIFIER_LENGTH);
        }
    }

    /** An affinity may repeat pCPUs; the element check allows 4 x pCPUs + 16 entries of the actual host. */
    private int cpuListLimit() {
        return limits.maxPcpus() * 4 + 16;
    }

    /** True (and a violation) when the list or map has more than {@code max} entries. */
    private boolean count(String at, Object listOrMap, int max, String what) {
        int size = listOrMap instanceof List<?> l ? l.size() : listOrMap instanceof Map<?, ?> m ? m.size() : 0;
        if (size > max) {
            out.add(new Violation(at, "at most " + max + " " + what + ", got " + size));
            return true;
        }
        return false;
    }

    private void text(String at, String value, int max) {
        if (value != null && value.length() > max) {
            out.add(new Violation(at, "at most " + max + " characters, got " + value.length()));
        }
    }
}
