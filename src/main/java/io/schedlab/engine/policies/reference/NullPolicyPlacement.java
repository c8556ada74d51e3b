package io.schedlab.engine.policies.reference;

import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.SpecNormalizer;
import io.schedlab.engine.spec.TimelineAction;
import io.schedlab.engine.spec.VcpuAffinitySpec;
import io.schedlab.engine.spec.Violation;
import io.schedlab.engine.spec.VmSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Feasibility of the {@code null} policy (xen/common/sched/null.c): each vCPU needs a pCPU of its
 * own inside its hard affinity. Replays the policy's own assignment, which is sticky and greedy:
 * null_unit_insert -> pick_res takes the vCPU's current processor (its placement) if free and
 * allowed, else the lowest free allowed pCPU, else the vCPU waits on the waitq; unit_deassign (VM
 * shutdown) hands a freed pCPU to the first waiting vCPU allowed there. Events are replayed in the
 * simulator's order: VM starts and timeline actions by time, VM starts first at equal times. A
 * vCPU still waiting at the end would never run. A one-to-one matching is not enough: an assigned
 * vCPU is never moved to make room, so a matching can exist while a vCPU waits forever.
 * Runtime pin/unpin is not replayed. Cost O(vCPUs x pCPUs), bounded by {@link Limits}.
 */
final class NullPolicyPlacement {
    private static final int MAX_OWNERS_LISTED = 8;

    private final int[] owner;
    private final List<String> vcpuNames = new ArrayList<>();
    private final List<int[]> allowed = new ArrayList<>();
    private final Map<String, int[]> vcpuRangeByVm = new LinkedHashMap<>();
    /** vCPUs on the waitq, in arrival order, with the pointer of their VM's affinity. */
    private final Map<Integer, String> waiting = new LinkedHashMap<>();

    private NullPolicyPlacement(int pcpus) {
        owner = new int[pcpus];
        Arrays.fill(owner, -1);
    }

    /** Violations for a normalized spec under the null policy; {@code raw} gives the submitted pointers. */
    static List<Violation> check(ExperimentSpec raw, ExperimentSpec s) {
        List<Violation> out = new ArrayList<>();
        int pcpus = (int) s.host().usablePcpus();
        int initial = 0;
        for (VmSpec vm : s.vms()) {
            initial += vm.vcpus();
        }
        if (initial > pcpus) {
            out.add(new Violation("/vms", "the null scheduler runs at most one vCPU per pCPU: " + initial
                    + " vCPUs > " + pcpus + " pCPUs"));
            return out;
        }
        // Events: {time order key, kind (0 = VM start, 1 = timeline), index}; stable within a kind.
        List<double[]> events = new ArrayList<>();
        for (int i = 0; i < s.vms().size(); i++) {
            events.add(new double[] {s.vms().get(i).startAtSeconds(), 0, i});
        }
        for (int i = 0; i < s.timeline().size(); i++) {
            TimelineAction a = s.timeline().get(i);
            if (a != null && a.atSeconds() != null && a.action() != null) {
                events.add(new double[] {a.atSeconds(), 1, i});
            }
        }
        events.sort(Comparator.<double[]>comparingDouble(e -> e[0]).thenComparingDouble(e -> e[1])
                .thenComparingDouble(e -> e[2]));
        NullPolicyPlacement m = new NullPolicyPlacement(pcpus);
        for (double[] e : events) {
            int i = (int) e[2];
            if (e[1] == 0) {
                m.add("/vms/" + i, raw.vms().get(i), s.vms().get(i));
                continue;
            }
            TimelineAction a = s.timeline().get(i);
            if (a.action() == TimelineAction.Kind.SHUTDOWN && a.vm() != null) {
                m.shutdown(a.vm());
            } else if (a.action() == TimelineAction.Kind.CREATE_VM && a.newVm() != null) {
                m.add("/timeline/" + i + "/newVm", raw.timeline().get(i).newVm(), a.newVm());
            }
        }
        m.reportWaiting(out);
        return out;
    }

    private void add(String at, VmSpec raw, VmSpec vm) {
        int first = vcpuNames.size();
        for (int k = 0; k < vm.vcpus(); k++) {
            int[] cpus = SpecNormalizer.hardOf(k, vm.hardAffinity(), vm.vcpuAffinity()).stream()
                    .mapToInt(Integer::intValue).toArray();
            int v = vcpuNames.size();
            vcpuNames.add(vm.name() + ".v" + k);
            allowed.add(cpus);
            if (!assign(v, vm.placement().get(k))) {
                waiting.put(v, affinityPointer(at, raw, k));
            }
        }
        vcpuRangeByVm.put(vm.name(), new int[] {first, vcpuNames.size()});
    }

    /** null.c pick_res: the current processor if free and allowed, else the lowest free allowed pCPU. */
    private boolean assign(int v, int processor) {
        int[] cpus = allowed.get(v);
        int p = -1;
        if (processor >= 0 && processor < owner.length && owner[processor] < 0 && contains(cpus, processor)) {
            p = processor;
        } else {
            for (int c : cpus) {
                if (c >= 0 && c < owner.length && owner[c] < 0 && (p < 0 || c < p)) {
                    p = c;
                }
            }
        }
        if (p < 0) {
            return false;
        }
        owner[p] = v;
        return true;
    }

    /** Shutdown: each vCPU's pCPU goes to the first waiting vCPU allowed there (null.c unit_deassign). */
    private void shutdown(String vm) {
        int[] range = vcpuRangeByVm.remove(vm);
        if (range == null) {
            return;
        }
        waiting.keySet().removeIf(v -> v >= range[0] && v < range[1]);
        for (int v = range[0]; v < range[1]; v++) {
            for (int p = 0; p < owner.length; p++) {
                if (owner[p] == v) {
                    owner[p] = -1;
                    handOn(p);
                }
            }
        }
    }

    private void handOn(int p) {
        for (Integer w : waiting.keySet()) {
            if (contains(allowed.get(w), p)) {
                owner[p] = w;
                waiting.remove(w);
                return;
            }
        }
    }

    private void reportWaiting(List<Violation> out) {
        Set<String> reported = new LinkedHashSet<>();
        for (Map.Entry<Integer, String> w : waiting.entrySet()) {
            String name = vcpuNames.get(w.getKey());
            int dot = name.lastIndexOf(".v");
            String vm = name.substring(0, dot);
            if (reported.add(vm)) {
                out.add(new Violation(w.getValue(), "vCPU " + name.substring(dot + 2) + " of VM '" + vm
                        + "' has no pCPU of its own under the null policy (one vCPU per pCPU), so it would"
                        + " never run: " + takenBy(allowed.get(w.getKey()))));
            }
        }
    }

    private String takenBy(int[] cpus) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < cpus.length && i < MAX_OWNERS_LISTED; i++) {
            int o = owner[cpus[i]];
            b.append(i == 0 ? "" : ", ").append("pCPU ").append(cpus[i]).append(" is taken by ")
                    .append(o >= 0 ? vcpuNames.get(o) : "nobody");
        }
        if (cpus.length > MAX_OWNERS_LISTED) {
            b.append(", ... (all ").append(cpus.length).append(" allowed pCPUs are taken)");
        }
        return b.toString();
    }

    private static boolean contains(int[] cpus, int p) {
        for (int c : cpus) {
            if (c == p) {
                return true;
            }
        }
        return false;
    }

    /** The submitted field that pins vCPU k: its vcpuAffinity override, the VM's hardAffinity, or the VM. */
    private static String affinityPointer(String at, VmSpec raw, int k) {
        if (raw != null && raw.vcpuAffinity() != null) {
            for (int j = 0; j < raw.vcpuAffinity().size(); j++) {
                VcpuAffinitySpec o = raw.vcpuAffinity().get(j);
                if (o != null && o.vcpu() != null && o.vcpu() == k && o.hard() != null) {
                    return at + "/vcpuAffinity/" + j + "/hard";
                }
            }
        }
        return raw != null && raw.hardAffinity() != null ? at + "/hardAffinity" : at;
    }
}
