package io.schedlab.engine.policies;

import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.Vm;
import java.util.Map;

/**
 * A hypervisor vCPU scheduler, shaped after Xen's {@code struct scheduler} hooks
 * (xen/common/sched/private.h: insert_unit, remove_unit, pick_resource, wake, sleep,
 * do_schedule, context_saved, yield, adjust), plus Linux's directed yield_to for KVM. The hypervisor's schedule
 * path in the simulator is the only caller of these hooks, in this order:
 * <ul>
 * <li>wake: the path sets state RUNNABLE, calls {@link #pickCpu}, sets {@code v.processor}, calls {@link #wake};</li>
 * <li>block: the path sets state BLOCKED, calls {@link #sleep}, then schedules the pCPU if v was running there;</li>
 * <li>schedule on pCPU p (tickle, slice timer, block or yield): {@link #doSchedule}; if the result differs from
 * prev, the path switches (prev RUNNING becomes RUNNABLE) and, under Xen, afterwards calls
 * {@link #contextSaved}(prev); Linux's path (KVM) has no such step.</li>
 * </ul>
 * A policy keeps its queues itself and never touches {@code Pcpu.current} or vCPU states (core scheduling, the
 * schedule path of its inner policy, changes only those of its own units and resources). Optional capabilities
 * are interfaces a policy also implements: {@link DirectedYield}, {@link LockWork}, {@link SelfCheckAssumptions}.
 */
public interface SchedulerPolicy {

    /** Called once before any vCPU exists. */
    void init(SchedulerContext ctx);

    /** A new vCPU (state OFFLINE, {@code processor} = its initial placement); it is woken separately. */
    void addVcpu(Vcpu v);

    /** A vCPU goes away (VM shutdown); it is already not running and has been put to sleep. */
    void removeVcpu(Vcpu v);

    /** Where a waking vCPU should be queued (Xen pick_resource); must be in its hard affinity. */
    int pickCpu(Vcpu v);

    /** v became runnable: queue it and tickle (via the context) whichever pCPU should run it. */
    void wake(Vcpu v);

    /** v blocked (state already BLOCKED): drop it from any queue. */
    void sleep(Vcpu v);

    /**
     * Choose what pCPU p runs next. {@code prev} is p's current vCPU or null (idle); when still
     * RUNNING it is a candidate. The returned vCPU must be RUNNABLE-and-queued (remove it from the
     * queue) or prev itself, and allowed on p.
     */
    Decision doSchedule(Pcpu p, Vcpu prev, boolean prevYielded);

    /** prev's state has been saved after a switch away from it (Xen only): re-queue it if still runnable. */
    void contextSaved(Vcpu prev);

    /**
     * The running v yields its pCPU (Xen vcpu_yield, called by the pause-loop exit of an HVM guest, see the
     * Xen hypervisor layer); v's pCPU is rescheduled right after.
     */
    default void yield(Vcpu v) {
    }

    /** Tasks on p's run queue, the running one included (Linux rq->nr_running), or -1 when the policy has none per pCPU. */
    default int nrRunning(Pcpu p) {
        return -1;
    }

    /** Hard or soft affinity of v changed; the simulator reschedules v's pCPU if it now runs where it may not. */
    default void affinityChanged(Vcpu v) {
    }

    /**
     * v's scheduling parameters ({@link SchedulerContext#schedParams(Vcpu)}) changed (timeline set-sched-params;
     * Xen XEN_DOMCTL_SCHEDOP_putvcpuinfo). A VM-level change calls this for each of its vCPUs.
     */
    default void schedParamsChanged(Vcpu v) {
    }

    /** Weight or cap of a domain changed. */
    default void domainParamsChanged(Vm vm) {
    }

    /**
     * Run-level statistics, name -> value (every name declared in the descriptor's statistics); read once at
     * the end of the run for {@code policyStatistics}.
     */
    default Map<String, Long> statistics() {
        return Map.of();
    }

    /** v's own statistics (the descriptor's per-vCPU names); v may have been removed (shut down) already. */
    default Map<String, Long> statistics(Vcpu v) {
        return Map.of();
    }

    /** Id of the lock that serialises scheduling decisions on p (per pCPU, per run queue, or global). */
    int lockDomain(Pcpu p);

    /** Run queue id of p, for per-run-queue statistics (0 .. runqueueCount()-1). */
    default int runqueueOf(Pcpu p) {
        return p.id;
    }

    /** Number of run queues. */
    int runqueueCount();
}
