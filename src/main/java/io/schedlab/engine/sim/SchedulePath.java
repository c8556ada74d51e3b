package io.schedlab.engine.sim;

import io.schedlab.engine.costs.CostModel;
import io.schedlab.engine.hypervisor.Hypervisor;
import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.model.VcpuStateMachine;
import io.schedlab.engine.model.Vm;
import io.schedlab.engine.policies.CoreScheduled;
import io.schedlab.engine.policies.Decision;
import io.schedlab.engine.policies.DirectedYield;
import io.schedlab.engine.policies.LockWork;
import io.schedlab.engine.policies.SchedulerPolicy;
import io.schedlab.engine.policies.SelfCheckAssumptions;
import io.schedlab.engine.policies.YieldToResult;
import io.schedlab.engine.recording.BoundedTrace;
import java.util.Map;
import java.util.TreeMap;

/**
 * The hypervisor's schedule path, the one caller of the policy's hooks: vCPU creation and removal, the
 * wake and block protocol, schedule() on a pCPU (lock, decision, switch) and what follows a switch, yields,
 * affinity and parameter changes. It owns which vCPU each pCPU runs ({@code Pcpu.current} and its
 * {@link VcpuRun}), the scheduler locks, the slice timers and the run-queue statistics; {@link RunBooks} books
 * what its switches do. {@link XenSchedulePath} follows
 * xen/common/sched/core.c (context_saved after the switch), {@link LinuxSchedulePath} kernel/sched/core.c
 * __schedule() (no context_saved step).
 */
abstract class SchedulePath {
    /** The clock, the event queue and the self-check; the other parts of the run are taken when the path is built. */
    final Simulator sim;
    final CostModel costs;
    /** The vCPU and VM tables. */
    final RunTables tables;
    final Progress progress;
    final BoundedTrace trace;
    final RunLatencies latencies;
    final Pcpu[] pcpus;
    final String policyName;
    /** The policy: only this class and its two subclasses call its hooks. */
    final SchedulerPolicy policy;
    /** The policy's lock work report (null: charged per sharer). */
    private final LockWork lockWork;
    /** Core scheduling hooks (rendezvous, forced idle), null at cpu granularity. */
    final CoreScheduled coreSched;
    final LockModel locks;
    /** Dense lock-domain index of each pCPU (the policy's lockDomain ids renumbered). */
    final int[] lockOf;
    /** Run queue of each pCPU (the policy's runqueueOf, modulo its run-queue count). */
    final int[] rqOf;
    final RunQueueStats rqs;
    /** State of each pCPU's current vCPU (null: idle), written together with Pcpu.current. */
    private final VcpuRun[] runningOn;
    /** A SCHEDULE_SOFTIRQ raised on the pCPU is still in flight (tickles are deduplicated). */
    private final boolean[] schedulePending;
    /** Slice timer per pCPU (Xen's s_timer, Linux's tick check), coalesced like plan events. */
    final SliceTimers slices;
    /** What the switches do to the pCPUs' and vCPUs' books. */
    final RunBooks books;

    /** Initialises the policy ({@code init}) and reads its lock domains and run queues. */
    SchedulePath(Simulator sim, SchedulerPolicy policy) {
        this.sim = sim;
        this.costs = sim.costs();
        this.tables = sim.tables();
        this.progress = sim.progress();
        this.trace = sim.trace();
        this.latencies = sim.latencies();
        this.pcpus = sim.pcpus();
        this.policyName = sim.policyName();
        this.policy = policy;
        int nP = sim.nP();
        runningOn = new VcpuRun[nP];
        schedulePending = new boolean[nP];
        slices = new SliceTimers(sim, nP);
        policy.init(sim.ctx());
        coreSched = CoreScheduled.of(policy);
        if (coreSched != null) {
            coreSched.attach(q -> sim.push(sim.now(), Simulator.EV_SCHEDULE, q, 0), costs.rendezvousNanos());
        }
        // Dense lock-domain and run-queue indices (policies may use any int ids).
        TreeMap<Integer, Integer> lockIds = new TreeMap<>();
        for (int p = 0; p < nP; p++) {
            lockIds.putIfAbsent(policy.lockDomain(pcpus[p]), lockIds.size());
        }
        int[] sharers = new int[lockIds.size()];
        lockOf = new int[nP];
        for (int p = 0; p < nP; p++) {
            lockOf[p] = lockIds.get(policy.lockDomain(pcpus[p]));
            sharers[lockOf[p]]++;
        }
        lockWork = LockWork.of(policy);
        locks = new LockModel(costs, sharers, lockWork != null);
        int nRq = Math.max(1, policy.runqueueCount());
        rqOf = new int[nP];
        for (int p = 0; p < nP; p++) {
            rqOf[p] = Math.floorMod(policy.runqueueOf(pcpus[p]), nRq);
        }
        rqs = new RunQueueStats(sim, nRq);
        books = new RunBooks(sim, rqs, rqOf, coreSched);
    }

    /** The path of {@code hypervisor}, which initialises {@code policy}. */
    static SchedulePath of(Hypervisor hypervisor, Simulator sim, SchedulerPolicy policy) {
        return hypervisor == Hypervisor.XEN ? new XenSchedulePath(sim, policy) : new LinuxSchedulePath(sim, policy);
    }

    // ------------------------------------------------------------------ what differs per hypervisor

    /**
     * What follows the switch away from {@code prevRun} on p, the switch ending at {@code t}: returns when
     * the vCPU switched in may start.
     */
    abstract long afterSwitch(VcpuRun prevRun, int p, long t);

    /** True while p cannot run schedule() yet (it is still inside the last switch); the request then waits. */
    boolean deferSchedule(int p) {
        return false;
    }

    /** The queued step at the end of a switch on p ({@link Simulator#EV_CONTEXT_SAVED}). */
    void switchTailEvent(int p) {
        throw new IllegalStateException("no deferred step after a switch on this hypervisor (pcpu" + p + ")");
    }

    /** True when p's current vCPU may have stopped running while p finishes its last switch (self-check). */
    boolean rescheduleAfterSwitchTail(int p) {
        return false;
    }

    // ------------------------------------------------------------------ read side

    /** The vCPU p runs (null: idle). */
    final VcpuRun runningOn(int p) {
        return runningOn[p];
    }

    /** What the policy lets the self-check assume. */
    final SelfCheckAssumptions assumptions() {
        return SelfCheckAssumptions.of(policy);
    }

    /** The policy's run queue of pCPU p now. */
    final int runqueueOf(int p) {
        return policy.runqueueOf(pcpus[p]);
    }

    /** The policy's run-level statistics, sorted by name. */
    final Map<String, Long> policyStatistics() {
        return new TreeMap<>(policy.statistics());
    }

    /** The policy's statistics of v, sorted by name. */
    final Map<String, Long> policyStatistics(Vcpu v) {
        return new TreeMap<>(policy.statistics(v));
    }

    /** rq->nr_running of pCPU p (-1 when the policy keeps none per pCPU). */
    final int nrRunning(int p) {
        return policy.nrRunning(pcpus[p]);
    }

    // ------------------------------------------------------------------ VM lifecycle

    /** A VM's vCPUs are created (insert_unit for each), then each is BLOCKED until its guest wakes it. */
    final void addVcpus(VmRun run, long at) {
        for (VcpuRun vr : run.vcpus) {
            policy.addVcpu(vr.v);
        }
        for (VcpuRun vr : run.vcpus) {
            VcpuStateMachine.move(vr.v, VcpuState.BLOCKED);
            vr.account(VcpuState.BLOCKED, at);
        }
    }

    /** A shut-down VM's vCPUs stop (as after vcpu_sleep_nosync), leave the policy (remove_unit) and go OFFLINE. */
    final void removeVcpus(VmRun run) {
        for (VcpuRun vr : run.vcpus) {
            deschedule(vr, null);
            vr.migrating = false;
        }
        for (VcpuRun vr : run.vcpus) {
            policy.removeVcpu(vr.v);
            VcpuStateMachine.move(vr.v, VcpuState.OFFLINE);
            vr.account(VcpuState.OFFLINE, sim.now());
            vr.planDeadline = Simulator.NEVER;
        }
    }

    /**
     * Hard affinity changed (xl vcpu-pin -> vcpu_set_affinity): if v's pCPU is no longer allowed,
     * Xen's vcpu_migrate_start sets _VPF_migrating and puts it to sleep; a running vCPU is switched
     * away, and after the switch the migration finishes by waking it on an allowed pCPU; a queued one
     * is placed again at once.
     */
    final void hardAffinityChanged(VcpuRun vr) {
        Vcpu v = vr.v;
        policy.affinityChanged(v);
        if (v.allowedOn(v.processor)) {
            return;
        }
        if (v.state == VcpuState.RUNNING) {
            progress.settle(vr); // the work it did so far counts (settle skips a vCPU no longer RUNNING)
            vr.migrating = true;
            deschedule(vr, null);
        } else if (v.state == VcpuState.RUNNABLE) {
            deschedule(vr, null);
            requeue(vr);
        }
    }

    /** Soft affinity changed: the policy hears of it. */
    final void softAffinityChanged(VcpuRun vr) {
        policy.affinityChanged(vr.v);
    }

    /** A domain's weight or cap changed. */
    final void domainParamsChanged(Vm vm) {
        policy.domainParamsChanged(vm);
    }

    /** A vCPU's scheduling parameters changed. */
    final void schedParamsChanged(VcpuRun vr) {
        policy.schedParamsChanged(vr.v);
    }

    // ------------------------------------------------------------------ wake and block

    /** Raise SCHEDULE_SOFTIRQ on p (deduplicated; delivered after the IPI latency). */
    final void tickle(int p) {
        if (!schedulePending[p]) {
            schedulePending[p] = true;
            sim.push(sim.now() + costs.ipiLatencyNanos(), Simulator.EV_SCHEDULE, p, 0);
            if (trace.enabled()) {
                trace.record(sim.now(), p, "tickle", null, -1);
            }
        }
    }

    /** The raised SCHEDULE_SOFTIRQ reaches p: schedule() there. */
    final void softirq(int p) {
        schedulePending[p] = false;
        schedule(p, false);
    }

    /** The slice timer event {@code version} of p fired: schedule() there when p's slice is over. */
    final void sliceEvent(int p, int version) {
        if (slices.fire(p, version, sim.now())) {
            schedule(p, false);
        }
    }

    /** Xen vcpu_wake (Linux try_to_wake_up): a blocked vCPU becomes runnable; the policy picks its pCPU and queues it. */
    final void wake(VcpuRun vr) {
        Vcpu v = vr.v;
        VcpuStateMachine.move(v, VcpuState.RUNNABLE);
        vr.account(VcpuState.RUNNABLE, sim.now());
        vr.runnableSince = sim.now();
        placeAndWake(vr);
        if (trace.enabled()) {
            trace.record(sim.now(), v.processor, "wake", v.vm.name, v.index);
        }
    }

    /** Xen SCHEDOP_block (Linux: the vCPU thread sleeps): a running vCPU has nothing to run; its pCPU reschedules at once. */
    final void block(VcpuRun vr) {
        deschedule(vr, "block");
    }

    /**
     * vcpu_sleep_nosync (Linux dequeue_task with DEQUEUE_SLEEP): v becomes BLOCKED and the policy drops it; a
     * running v gives its pCPU up at once (schedule()), a queued one leaves its run queue. The trace records
     * {@code traceEvent} (null: nothing) between the two.
     */
    private void deschedule(VcpuRun vr, String traceEvent) {
        Vcpu v = vr.v;
        VcpuState was = v.state;
        if (was != VcpuState.RUNNING && was != VcpuState.RUNNABLE) {
            return;
        }
        VcpuStateMachine.move(v, VcpuState.BLOCKED);
        policy.sleep(v);
        if (traceEvent != null && trace.enabled()) {
            trace.record(sim.now(), v.processor, traceEvent, v.vm.name, v.index);
        }
        if (was == VcpuState.RUNNING) {
            schedule(v.processor, false);
        } else {
            rqs.leave(vr);
        }
    }

    /** A blocked vCPU that was only moved (not asleep) is runnable again where the policy places it. */
    final void requeue(VcpuRun vr) {
        VcpuStateMachine.move(vr.v, VcpuState.RUNNABLE);
        placeAndWake(vr);
    }

    private void placeAndWake(VcpuRun vr) {
        Vcpu v = vr.v;
        int p = policy.pickCpu(v);
        if (p < 0 || p >= sim.nP() || !v.allowedOn(p)) {
            throw new IllegalStateException("policy " + policyName + ": pickCpu(" + v + ") returned pCPU " + p
                    + " outside its hard affinity " + v.hardAffinity);
        }
        v.processor = p;
        rqs.enter(vr, rqOf[p]);
        if (sim.selfCheck() != null) {
            sim.selfCheck().onPlaced(vr);
        }
        if (locks.perWork()) {
            takeLockWork(); // work outside a locked path is not charged
            policy.wake(v);
            locks.acquire(lockOf[p], sim.now(), locks.otherHold(takeLockWork()));
        } else {
            policy.wake(v);
        }
    }

    /** A policy timer fires under the scheduler lock (of pCPU 0's domain: RTDS's one lock for its replenishment). */
    final void runPolicyTimer(Runnable action) {
        if (locks.perWork()) {
            takeLockWork();
            action.run();
            locks.acquire(lockOf[0], sim.now(), locks.otherHold(takeLockWork()));
        } else {
            action.run();
        }
    }

    /** Xen vcpu_yield (Linux sched_yield) of the running v: the policy's yield, then schedule() on v's pCPU. */
    final void yield(Vcpu v) {
        policy.yield(v);
        schedule(v.processor, false);
    }

    /** Linux yield_to (kernel/sched/core.c) from the running {@code from} to {@code to}; the caller reschedules. */
    final YieldToResult yieldTo(Vcpu from, Vcpu to) {
        return DirectedYield.of(policy).yieldTo(from, to);
    }

    // ------------------------------------------------------------------ schedule()

    /**
     * schedule() on pCPU p: take the scheduler lock, ask the policy, switch if the answer differs, then
     * {@link #afterSwitch}. Costs are charged as pCPU overhead that starts when any earlier overhead on p ends.
     */
    final void schedule(int p, boolean yielded) {
        if (deferSchedule(p)) {
            return;
        }
        Pcpu pc = pcpus[p];
        long now = sim.now();
        long start = Math.max(now, books.accounts.overheadUntil(p));
        Vcpu prev = pc.current;
        VcpuRun prevRun = runningOn[p];
        if (prev == null) {
            books.idleEnded(p, Math.max(0, start - books.accounts.idleSince(p)));
        } else {
            progress.settle(prevRun);
        }
        int lock = lockOf[p];
        if (locks.perWork()) {
            takeLockWork();
        }
        Decision d = policy.doSchedule(pc, prev, yielded);
        Vcpu next = d == null ? null : d.next();
        checkDecision(pc, prev, next);
        long hold = locks.decisionHold(lock, locks.perWork() ? takeLockWork() : 0);
        long wait = locks.acquire(lock, start, hold);
        latencies.decision(wait + hold);
        long t = start + wait + hold + (coreSched == null ? 0 : coreSched.takeRendezvousNanos(p));

        if (next != prev) {
            VcpuRun nextRun = next == null ? null : tables.vcpu(next.uid);
            long sw = costs.contextSwitchNanos();
            if (prev == null && nextRun != null && nextRun.lastPcpu >= 0 && nextRun.lastPcpu != p) {
                sw += costs.tlbFlushNanos(); // seed 000: idle -> vCPU last run elsewhere flushes the TLB
            }
            latencies.contextSwitch(sw);
            books.switches.switched();
            t += sw;
            boolean busyChange = (prev == null) != (next == null);
            if (busyChange) {
                progress.settleSiblings(p);
            }
            if (prevRun != null) {
                if (prevRun.v.state == VcpuState.RUNNING) {
                    VcpuStateMachine.move(prevRun.v, VcpuState.RUNNABLE); // the policy re-queues it
                }
                books.stopped(prevRun, p, start);
            }
            pc.current = next;
            runningOn[p] = nextRun;
            if (prevRun != null) {
                t = afterSwitch(prevRun, p, t);
            }
            if (nextRun != null) {
                if (sim.selfCheck() != null) {
                    sim.selfCheck().beforeStart(nextRun);
                }
                VcpuStateMachine.move(next, VcpuState.RUNNING);
                books.started(nextRun, p, t);
            }
            if (busyChange) {
                progress.replanSiblings(p);
            }
            if (trace.enabled()) {
                trace.record(now, p, "switch", next == null ? null : next.vm.name, next == null ? -1 : next.index);
            }
        } else if (prevRun != null) {
            books.continued(prevRun, p, start, t); // same vCPU: its run pauses for the decision overhead
        }
        books.overhead(p, start, t, pc.current == null);
        slices.set(p, d != null && d.runNanos() >= 0 ? Math.max(t, start + d.runNanos()) : Simulator.NEVER);
    }

    /** Queue work the policy did since the last call (0 when it reports none). */
    final long takeLockWork() {
        return lockWork == null ? 0 : lockWork.takeLockWork();
    }

    /** The tail of p's last switch ran from {@code start} to {@code end} as its own step (see {@link RunBooks}). */
    final void switchTailEnded(int p, long start, long end) {
        books.switchTailEnded(p, runningOn[p], start, end);
    }

    /**
     * The migration of a vCPU moved off by an affinity change finishes after its switch (Xen
     * sched_unit_migrate_finish; Linux move_queued_task by the stopper): it is woken where allowed.
     */
    final void finishMigration(VcpuRun vr) {
        vr.migrating = false;
        if (vr.v.state == VcpuState.BLOCKED && vr.vm.vm.alive) {
            requeue(vr);
        }
    }

    private void checkDecision(Pcpu p, Vcpu prev, Vcpu next) {
        if (next == null) {
            return;
        }
        String problem = null;
        if (!next.allowedOn(p.id)) {
            problem = "outside its hard affinity " + next.hardAffinity;
        } else if (next == prev) {
            if (prev.state != VcpuState.RUNNING) {
                problem = "which is " + prev.state;
            }
        } else if (next.state != VcpuState.RUNNABLE) {
            problem = "which is " + next.state + (next.state == VcpuState.RUNNING ? " on pcpu" + next.processor : "");
        }
        if (problem != null) {
            throw new IllegalStateException("policy " + policyName + ": doSchedule on pcpu" + p.id + " at "
                    + sim.now() + " ns returned " + next + " " + problem);
        }
    }

    // ------------------------------------------------------------------ end of run

    /** Closes the books at {@code end}. */
    final void finish(long end) {
        books.finish(end);
    }
}
