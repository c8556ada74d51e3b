package io.schedlab.engine.catalogue;

import io.schedlab.engine.recording.TraceSink;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.TimelineAction;
import io.schedlab.engine.spec.VcpuAffinitySpec;
import io.schedlab.engine.spec.VmSpec;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks that hard affinity is never violated, the way E3's author did it (scripted {@code xl vcpu-pin}
 * changes, then listing where every vCPU ran), but on every switch-in of the trace: each
 * {@code switch} record that starts vCPU (vm, i) on pCPU p must have p in that vCPU's hard affinity in
 * force at that time (from the normalized spec and its pin/unpin timeline). At the exact instant of a
 * pin change either the old or the new affinity is accepted.
 */
public final class AffinityAudit implements TraceSink {

    /** Violations kept as examples (the count is exact). */
    static final int MAX_EXAMPLES = 10;

    private final Map<String, List<Change>[]> changes = new LinkedHashMap<>();
    private long checked;
    private long violations;
    private final List<String> examples = new ArrayList<>();

    private record Change(long atNanos, BitSet allowed) {
    }

    /** Builds the affinity history from a normalized spec (every VM's hard affinity filled in). */
    public AffinityAudit(ExperimentSpec normalized) {
        for (VmSpec vm : normalized.vms()) {
            addVm(vm, 0);
        }
        List<TimelineAction> timeline = new ArrayList<>(normalized.timeline() == null ? List.of()
                : normalized.timeline());
        timeline.sort(Comparator.comparingDouble(TimelineAction::atSeconds));
        for (TimelineAction a : timeline) {
            long at = Math.round(a.atSeconds() * 1e9);
            if (a.action() == TimelineAction.Kind.CREATE_VM && a.newVm() != null) {
                addVm(a.newVm(), at);
            } else if ((a.action() == TimelineAction.Kind.PIN || a.action() == TimelineAction.Kind.UNPIN)
                    && a.pcpus() != null) {
                List<Change>[] perVcpu = changes.get(a.vm());
                if (perVcpu == null) {
                    continue;
                }
                for (int i = 0; i < perVcpu.length; i++) {
                    if (a.vcpu() == null || a.vcpu() == i) {
                        perVcpu[i].add(new Change(at, bits(a.pcpus())));
                    }
                }
            }
        }
    }

    @SuppressWarnings("unchecked")
    private void addVm(VmSpec vm, long at) {
        List<Change>[] perVcpu = new List[vm.vcpus()];
        for (int i = 0; i < perVcpu.length; i++) {
            List<Integer> hard = vm.hardAffinity();
            if (vm.vcpuAffinity() != null) {
                for (VcpuAffinitySpec o : vm.vcpuAffinity()) {
                    if (o.vcpu() != null && o.vcpu() == i && o.hard() != null) {
                        hard = o.hard();
                    }
                }
            }
            perVcpu[i] = new ArrayList<>();
            perVcpu[i].add(new Change(at, hard == null ? null : bits(hard)));
        }
        changes.put(vm.name(), perVcpu);
    }

    private static BitSet bits(List<Integer> pcpus) {
        BitSet b = new BitSet();
        pcpus.forEach(b::set);
        return b;
    }

    @Override
    public void record(long timeNanos, int pcpu, String event, String vm, int vcpu) {
        if (!"switch".equals(event) || vm == null || vcpu < 0) {
            return;
        }
        List<Change>[] perVcpu = changes.get(vm);
        if (perVcpu == null || vcpu >= perVcpu.length) {
            return;
        }
        checked++;
        if (!allowed(perVcpu[vcpu], timeNanos, pcpu)) {
            violations++;
            if (examples.size() < MAX_EXAMPLES) {
                examples.add(vm + ".v" + vcpu + " started on pCPU " + pcpu + " at " + timeNanos + " ns");
            }
        }
    }

    private static boolean allowed(List<Change> history, long t, int pcpu) {
        BitSet current = null;
        for (Change c : history) {
            if (c.atNanos() < t) {
                current = c.allowed();
            } else if (c.atNanos() == t) {
                // The change and the switch happened at the same instant: either side is legitimate.
                if (c.allowed() == null || c.allowed().get(pcpu)) {
                    return true;
                }
            } else {
                break;
            }
        }
        return current == null || current.get(pcpu);
    }

    /** Switch-ins of VM vCPUs checked. */
    public long checked() {
        return checked;
    }

    /** Switch-ins onto a pCPU outside the vCPU's hard affinity at that time. */
    public long violations() {
        return violations;
    }

    /** The first few violations, described. */
    public List<String> examples() {
        return List.copyOf(examples);
    }
}
