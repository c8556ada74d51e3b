package io.schedlab.engine.policies.reference;

import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.policies.Decision;
import io.schedlab.engine.policies.SchedulerContext;
import io.schedlab.engine.policies.SchedulerPolicy;
import io.schedlab.engine.policies.SelfCheckAssumptions;
import io.schedlab.engine.registry.CostHints;
import io.schedlab.engine.registry.PolicyDescriptor;
import java.util.ArrayDeque;
import java.util.List;

/**
 * {@code static}: every vCPU stays on the pCPU it was placed on and pCPUs never balance: a per-pCPU
 * round-robin queue with a fixed slice. This is the behaviour behind seed 001 (Xen 3.0 era, before
 * credit's work stealing): two loops placed on one pCPU share it while the other idles. A vCPU
 * moves only when its hard affinity no longer includes its pCPU (then to the lowest allowed pCPU).
 */
public final class StaticPolicy implements SchedulerPolicy, SelfCheckAssumptions {
    public static final String NAME = "static";

    private final long sliceNanos;
    private SchedulerContext ctx;
    private ArrayDeque<Vcpu>[] queues;

    public StaticPolicy(Params params) {
        this.sliceNanos = params.getLong("sliceMs") * 1_000_000L;
    }

    /** Registry entry. */
    public static PolicyDescriptor descriptor() {
        return new PolicyDescriptor(NAME,
                "vCPUs stay where placed, per-pCPU round robin, never rebalanced (seed 001's pathology)",
                List.of(ParameterSpec.integer("sliceMs", 30, 1, 1000, "ms", "Round-robin time slice.",
                        "xen/common/sched/credit.c: CSCHED_DEFAULT_TSLICE_MS 30")),
                StaticPolicy::new).with((CostHints) params -> params.getLong("sliceMs") / 1e3); // a slice per switch
    }

    @Override
    @SuppressWarnings("unchecked")
    public void init(SchedulerContext ctx) {
        this.ctx = ctx;
        int n = ctx.topology().size();
        queues = new ArrayDeque[n];
        for (int i = 0; i < n; i++) {
            queues[i] = new ArrayDeque<>();
        }
    }

    @Override
    public void addVcpu(Vcpu v) {
    }

    @Override
    public void removeVcpu(Vcpu v) {
        queues[v.processor].remove(v);
    }

    @Override
    public int pickCpu(Vcpu v) {
        return v.allowedOn(v.processor) ? v.processor : v.hardAffinity.nextSetBit(0);
    }

    @Override
    public void wake(Vcpu v) {
        queues[v.processor].addLast(v);
        if (ctx.topology().pcpu(v.processor).isIdle()) {
            ctx.tickle(v.processor);
        }
    }

    @Override
    public void sleep(Vcpu v) {
        queues[v.processor].remove(v);
    }

    @Override
    public Decision doSchedule(Pcpu p, Vcpu prev, boolean prevYielded) {
        ArrayDeque<Vcpu> q = queues[p.id];
        boolean prevCanRun = prev != null && prev.state == VcpuState.RUNNING && prev.allowedOn(p.id);
        if (q.isEmpty()) {
            return prevCanRun ? decisionFor(prev) : Decision.idle();
        }
        // Round robin: the head runs; prev goes to the tail in contextSaved.
        return decisionFor(q.pollFirst());
    }

    /** One decision per vCPU (by uid), made once: the slice never changes, so scheduling allocates nothing. */
    private Decision[] decisions = new Decision[0];

    private Decision decisionFor(Vcpu v) {
        if (v.uid >= decisions.length) {
            decisions = java.util.Arrays.copyOf(decisions, Math.max(v.uid + 1, 2 * decisions.length));
        }
        decisions[v.uid] = Decision.reuse(decisions[v.uid], v, sliceNanos);
        return decisions[v.uid];
    }

    @Override
    public void contextSaved(Vcpu prev) {
        if (prev.state == VcpuState.RUNNABLE) {
            queues[prev.processor].addLast(prev);
            if (ctx.topology().pcpu(prev.processor).isIdle()) {
                ctx.tickle(prev.processor);
            }
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
        return false;
    }
}
