package io.schedlab.engine.policies.reference;

import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.policies.Decision;
import io.schedlab.engine.policies.SchedulerContext;
import io.schedlab.engine.policies.SchedulerPolicy;
import io.schedlab.engine.policies.SelfCheckAssumptions;
import io.schedlab.engine.policies.xen.XenInsert;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.spec.SpecRules;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code null} (xen/common/sched/null.c): each pCPU is assigned at most one vCPU and runs only it
 * (or idles); no time slices. A vCPU that finds no free allowed pCPU waits on a list until one is
 * freed (null.c's waitq). The validator rejects experiments with more vCPUs than pCPUs.
 */
public final class NullPolicy implements SchedulerPolicy, SelfCheckAssumptions {
    public static final String NAME = "null";

    private SchedulerContext ctx;
    private Vcpu[] assigned;
    private final List<Vcpu> waiting = new ArrayList<>();

    public NullPolicy(Params params) {
    }

    /** Registry entry. */
    public static PolicyDescriptor descriptor() {
        return new PolicyDescriptor(NAME, "one vCPU per pCPU, no time sharing (xen/common/sched/null.c)", List.of(),
                NullPolicy::new).with((SpecRules) NullPolicyPlacement::check)
                .with((XenInsert) v -> "null_unit_insert -> pick_res (xen/common/sched/null.c)");
    }

    @Override
    public void init(SchedulerContext ctx) {
        this.ctx = ctx;
        this.assigned = new Vcpu[ctx.topology().size()];
    }

    @Override
    public void addVcpu(Vcpu v) {
        // null.c null_unit_insert -> pick_res: the current processor if free, else any free allowed pCPU.
        if (!tryAssign(v)) {
            waiting.add(v);
        }
    }

    private boolean tryAssign(Vcpu v) {
        int p = v.processor;
        if (!(v.allowedOn(p) && assigned[p] == null)) {
            p = -1;
            for (int c = v.hardAffinity.nextSetBit(0); c >= 0; c = v.hardAffinity.nextSetBit(c + 1)) {
                if (assigned[c] == null) {
                    p = c;
                    break;
                }
            }
        }
        if (p < 0) {
            return false;
        }
        assigned[p] = v;
        v.processor = p;
        return true;
    }

    private int assignedPcpu(Vcpu v) {
        return v.processor >= 0 && v.processor < assigned.length && assigned[v.processor] == v ? v.processor : -1;
    }

    @Override
    public void removeVcpu(Vcpu v) {
        waiting.remove(v);
        int p = assignedPcpu(v);
        if (p >= 0) {
            unassign(p);
        }
    }

    /** Free pCPU p and hand it to the first waiting vCPU allowed there (null.c unit_deassign). */
    private void unassign(int p) {
        assigned[p] = null;
        for (int i = 0; i < waiting.size(); i++) {
            Vcpu w = waiting.get(i);
            if (w.allowedOn(p)) {
                waiting.remove(i);
                assigned[p] = w;
                w.processor = p;
                if (w.state == VcpuState.RUNNABLE) {
                    ctx.tickle(p);
                }
                return;
            }
        }
    }

    @Override
    public int pickCpu(Vcpu v) {
        int p = assignedPcpu(v);
        if (p >= 0) {
            return p;
        }
        if (!waiting.contains(v)) {
            if (tryAssign(v)) {
                return v.processor;
            }
            waiting.add(v);
        }
        return v.allowedOn(v.processor) ? v.processor : v.hardAffinity.nextSetBit(0);
    }

    @Override
    public void wake(Vcpu v) {
        int p = assignedPcpu(v);
        if (p >= 0) {
            ctx.tickle(p);
        }
    }

    @Override
    public void sleep(Vcpu v) {
    }

    @Override
    public Decision doSchedule(Pcpu p, Vcpu prev, boolean prevYielded) {
        Vcpu v = assigned[p.id];
        if (v != null && v.allowedOn(p.id)
                && (v.state == VcpuState.RUNNABLE || (v == prev && v.state == VcpuState.RUNNING))) {
            return new Decision(v, -1);
        }
        return Decision.idle();
    }

    @Override
    public void contextSaved(Vcpu prev) {
    }

    @Override
    public void affinityChanged(Vcpu v) {
        int p = assignedPcpu(v);
        if (p >= 0 && !v.allowedOn(p)) {
            // The simulator moves v off p (vcpu_migrate); pickCpu assigns it anew when it is woken there.
            unassign(p);
        }
    }

    @Override
    public int lockDomain(Pcpu p) {
        return p.id;
    }

    @Override
    public int runqueueCount() {
        return ctx.topology().size();
    }

    @Override
    public boolean workConserving() {
        return false; // a pCPU stays reserved for its (possibly blocked) vCPU
    }
}
