package io.schedlab.engine.policies.coresched;

import io.schedlab.engine.policies.xen.XenVersion;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.TimelineAction;
import io.schedlab.engine.spec.VcpuAffinitySpec;
import io.schedlab.engine.spec.Violation;
import io.schedlab.engine.spec.VmSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Core-scheduling rules on a normalized spec: {@code schedGran} core|socket needs Xen 4.13 (where a
 * policy has {@code xenVersion}); with more than one pCPU per resource, hard affinities must be whole
 * resources and equal within a unit (Xen keeps one affinity per unit and tests a resource's master
 * pCPU, xen/common/sched/core.c vcpu_set_affinity / sched_unit_migrate_finish), and mid-run pin/unpin
 * is not modelled (it would move whole units).
 */
final class CoreSchedulingRules {
    private static final String AT = "/scheduler/params/" + SchedGranularity.PARAM;

    private CoreSchedulingRules() {
    }

    static List<Violation> violations(ExperimentSpec s) {
        List<Violation> out = new ArrayList<>();
        if (s.scheduler() == null || s.scheduler().params() == null) {
            return out;
        }
        Map<String, Object> params = s.scheduler().params();
        SchedGranularity gran;
        try {
            gran = SchedGranularity.parse(params.get(SchedGranularity.PARAM));
        } catch (IllegalArgumentException e) {
            return out; // reported by the parameter check
        }
        if (gran == SchedGranularity.CPU) {
            return out;
        }
        Object version = params.get("xenVersion");
        if (version != null) {
            try {
                XenVersion v = XenVersion.parse(String.valueOf(version));
                if (!v.atLeast(13)) {
                    out.add(new Violation(AT, "schedGran " + gran + " needs xenVersion >= 4.13 (core scheduling came"
                            + " with Xen 4.13); xenVersion is " + v));
                }
            } catch (RuntimeException e) {
                // reported by the parameter check
            }
        }
        HostSpec host = s.host();
        int threads = host.usableThreadsPerCore();
        int size = gran.cpusPerResource(host.coresPerSocket(), threads);
        if (size == 1) {
            return out; // one usable pCPU per resource: the same as cpu
        }
        Resources resources = Resources.of(host, gran);
        for (int i = 0; i < s.vms().size(); i++) {
            checkVm("/vms/" + i, s.vms().get(i), resources, size, gran, out);
        }
        for (int i = 0; i < s.timeline().size(); i++) {
            TimelineAction a = s.timeline().get(i);
            if (a == null || a.action() == null) {
                continue;
            }
            if (a.action() == TimelineAction.Kind.PIN || a.action() == TimelineAction.Kind.UNPIN) {
                out.add(new Violation("/timeline/" + i + "/action", a.action().name().toLowerCase(Locale.ROOT)
                        + " is not modelled with schedGran " + gran + " (it would move whole scheduling units);"
                        + " give hard affinities in vms[]"));
            } else if (a.action() == TimelineAction.Kind.CREATE_VM && a.newVm() != null) {
                checkVm("/timeline/" + i + "/newVm", a.newVm(), resources, size, gran, out);
            }
        }
        return out;
    }

    private static void checkVm(String at, VmSpec vm, Resources resources, int size, SchedGranularity gran,
            List<Violation> out) {
        List<TreeSet<Integer>> masks = new ArrayList<>();
        List<String> pointers = new ArrayList<>();
        for (int j = 0; j < vm.vcpus(); j++) {
            String pointer = at + "/hardAffinity";
            List<Integer> mask = vm.hardAffinity();
            List<VcpuAffinitySpec> overrides = vm.vcpuAffinity() == null ? List.of() : vm.vcpuAffinity();
            for (int o = 0; o < overrides.size(); o++) {
                VcpuAffinitySpec a = overrides.get(o);
                if (a != null && Objects.equals(a.vcpu(), j) && a.hard() != null) {
                    pointer = at + "/vcpuAffinity/" + o + "/hard";
                    mask = a.hard();
                }
            }
            masks.add(new TreeSet<>(mask));
            pointers.add(pointer);
        }
        Map<TreeSet<Integer>, List<Integer>> partialOf = new HashMap<>(); // a VM's vCPUs mostly share one mask
        for (int j = 0; j < masks.size(); j++) {
            List<Integer> partial = partialOf.computeIfAbsent(masks.get(j), resources::partlyCovered);
            if (!partial.isEmpty()) {
                out.add(new Violation(pointers.get(j), "with schedGran " + gran + " a hard affinity must hold whole "
                        + gran + "s (" + size + " pCPUs each): vCPU " + j + " covers only part of the " + gran
                        + " made of pCPUs " + Resources.shortList(partial)));
            } else if (j % size != 0 && !masks.get(j).equals(masks.get(j - j % size))) {
                out.add(new Violation(pointers.get(j), "vCPUs " + (j - j % size) + ".." + (j - j % size + size - 1)
                        + " form one scheduling unit (schedGran " + gran + "), which has one hard affinity: vCPU " + j
                        + " must have the same as vCPU " + (j - j % size)));
            }
        }
    }

    /** The pCPUs of each core (socket) under the host's numbering, looked up once per validation. */
    private record Resources(int[] keyOf, Map<Integer, List<Integer>> members) {
        static Resources of(HostSpec host, SchedGranularity gran) {
            int n = (int) host.usablePcpus();
            int[] keyOf = new int[n];
            Map<Integer, List<Integer>> members = new HashMap<>();
            for (int q = 0; q < n; q++) {
                keyOf[q] = gran == SchedGranularity.SOCKET ? host.socketOfPcpu(q) : host.coreOfPcpu(q);
                members.computeIfAbsent(keyOf[q], k -> new ArrayList<>()).add(q);
            }
            return new Resources(keyOf, members);
        }

        /** The pCPUs (ascending) of the first resource the mask covers only in part, or an empty list. */
        List<Integer> partlyCovered(TreeSet<Integer> mask) {
            Set<Integer> seen = new HashSet<>();
            for (int cpu : mask) {
                if (cpu < 0 || cpu >= keyOf.length || !seen.add(keyOf[cpu])) {
                    continue; // ids outside the host are reported by the affinity check
                }
                List<Integer> resource = members.get(keyOf[cpu]);
                if (!mask.containsAll(resource)) {
                    return resource;
                }
            }
            return List.of();
        }

        /** The ids, the first eight of a longer list followed by the count. */
        static String shortList(List<Integer> ids) {
            return ids.size() <= 8 ? ids.toString()
                    : ids.subList(0, 8).toString().replace("]", ", ... (" + ids.size() + " in all)]");
        }
    }
}
