package io.schedlab.engine.sim;

import io.schedlab.engine.run.RunCancelledException;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.run.RunLimitExceededException;
import io.schedlab.engine.costs.CostModel;
import io.schedlab.engine.hypervisor.Hypervisor;
import io.schedlab.engine.hypervisor.HypervisorLayer;
import io.schedlab.engine.metrics.BoundedTrace;
import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Topology;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.model.VcpuStateMachine;
import io.schedlab.engine.model.Vm;
import io.schedlab.engine.policies.CoreScheduled;
import io.schedlab.engine.policies.Decision;
import io.schedlab.engine.policies.LockWork;
import io.schedlab.engine.policies.SchedulerPolicy;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeMap;

/**
 * The discrete-event simulator: a virtual nanosecond clock, an event heap, the hypervisor's
 * schedule path (after xen/common/sched/core.c schedule() and sched_context_switched()), vCPU
 * wake/block, pCPU and vCPU accounting, and the guest kernels (see {@link GuestKernel}).
 * Single-threaded and deterministic: no wall clock, no hash-order iteration.
 */
public final class Simulator {
    static final int EV_SCHEDULE = 0;
    static final int EV_SLICE = 1;
    static final int EV_PLAN = 2;
    static final int EV_THREAD_WAKE = 3;
    static final int EV_TIMER = 4;
    static final int EV_TIMELINE = 5;
    static final int EV_VM_START = 6;
    static final int EV_CONTEXT_SAVED = 7;
    static final long NEVER = Long.MAX_VALUE;
    /** RunControl is polled every this many events (a power of two minus one mask). */
    private static final long POLL_MASK = (1 << 14) - 1;

    final ExperimentSpec spec;
    final Limits limits;
    final RunControl control;
    final CostModel costs;
    final Topology topo;
    final SchedulerPolicy policy;
    final String policyName;
    /** The policy's registry entry. */
    final PolicyDescriptor descriptor;
    /** The policy's lock work report (null: charged per sharer). */
    private final LockWork lockWork;
    final SimContext ctx;
    /** Xen's or KVM's layer: VM exits and their handlers (nothing for Xen). */
    final HypervisorLayer hyper;
    final GuestKernel guest;
    final EventQueue queue;
    final BoundedTrace trace;
    final long seed;
    final long endTime;
    final boolean stopWhenComplete;

    long now;
    long events;
    /** Set by {@link #requestStop()}: the main loop ends after the current event. */
    private boolean stopRequested;

    // pCPUs
    final int nP;
    final Pcpu[] pcpus;
    /** NUMA node of each pCPU. */
    final int[] numaNodeOf;
    /** State of each pCPU's current vCPU (null: idle), written together with Pcpu.current. */
    final VcpuRun[] runningOn;
    final int[][] siblings;
    /** Dense lock-domain index of each pCPU (the policy's lockDomain ids renumbered). */
    private final int[] lockOf;
    final LockModel locks;
    /** context_saved steps still to run at the end of a switch (policies that report lock work). */
    final DeferredSaves deferredSaves;
    /** Busy, idle and overhead time of every pCPU. */
    final PcpuAccounts accounts;
    /** A SCHEDULE_SOFTIRQ raised on the pCPU is still in flight (tickles are deduplicated). */
    private final boolean[] schedulePending;
    /** Slice timer per pCPU, coalesced like plan events. */
    final SliceTimers slices;
    final int[] rqOf;
    /** What each core's L2 and each socket's LLC still hold of a vCPU: the warm-up debt at switch-in. */
    final CacheModel caches;

    final RunQueueStats rqs;

    // vCPUs and VMs
    final List<VcpuRun> vcpus = new ArrayList<>();
    final List<VmRun> vmRuns = new ArrayList<>();
    final List<Vm> liveVms = new ArrayList<>();
    final List<Vm> liveVmsView = Collections.unmodifiableList(liveVms);
    final VmLifecycle lifecycle;
    final Progress progress;

    // metrics
    final RunLatencies latencies = new RunLatencies();
    final SwitchCounters switches;

    SelfCheck check;
    /** Core scheduling hooks (rendezvous, forced idle), null at cpu granularity. */
    final CoreScheduled coreSched;

    public Simulator(ExperimentSpec spec, Registry registry, Limits limits, RunControl control) {
        this(spec, registry, limits, control, Integer.MAX_VALUE);
    }

    /** As above, with at most {@code maxSeqBits} event-sequence bits (tests: the queue renumbers often). */
    Simulator(ExperimentSpec spec, Registry registry, Limits limits, RunControl control, int maxSeqBits) {
        this.spec = spec;
        this.limits = limits;
        this.control = control;
        this.costs = CostModel.from(spec.costs());
        this.topo = TopologyBuilder.build(spec.host());
        this.seed = spec.seed();
        this.endTime = toNanos(spec.durationSeconds());
        this.queue = new EventQueue(4096, endTime, maxSeqBits);
        this.stopWhenComplete = spec.stopWhen() == ExperimentSpec.StopCondition.ALL_COMPLETE;
        this.trace = Boolean.TRUE.equals(spec.trace().enabled())
                ? new BoundedTrace(control.traceSink(), Math.min(spec.trace().maxEvents(), limits.maxTraceEvents()))
                : BoundedTrace.off();
        this.policyName = spec.scheduler().policy();
        this.descriptor = registry.policy(policyName).orElseThrow();
        this.policy = descriptor.factory().apply(new Params(spec.scheduler().params()));
        this.ctx = new SimContext(this, Seeds.stream(seed, "policy:" + policyName));
        this.guest = new GuestKernel(this);

        nP = topo.size();
        pcpus = topo.pcpus().toArray(new Pcpu[0]);
        runningOn = new VcpuRun[nP];
        numaNodeOf = new int[nP];
        for (int p = 0; p < nP; p++) {
            numaNodeOf[p] = pcpus[p].numaNode;
        }
        siblings = new int[nP][];
        for (int p = 0; p < nP; p++) {
            siblings[p] = topo.siblings(p).stream().mapToInt(x -> x.id).toArray();
        }
        accounts = new PcpuAccounts(nP);
        schedulePending = new boolean[nP];
        slices = new SliceTimers(this, nP);
        rqOf = new int[nP];
        lockOf = new int[nP];
        caches = new CacheModel(topo, costs);
        switches = new SwitchCounters(topo);
        progress = new Progress(this);

        policy.init(ctx);
        hyper = hypervisorOf(spec, registry).create(new Params(spec.scheduler().params()), new SimHypervisorHost(this));
        coreSched = CoreScheduled.of(policy);
        if (coreSched != null) {
            coreSched.attach(q -> push(now, EV_SCHEDULE, q, 0), costs.rendezvousNanos());
        }
        // Dense lock-domain and run-queue indices (policies may use any int ids).
        TreeMap<Integer, Integer> lockIds = new TreeMap<>();
        for (int p = 0; p < nP; p++) {
            lockIds.putIfAbsent(policy.lockDomain(pcpus[p]), lockIds.size());
        }
        int[] sharers = new int[lockIds.size()];
        for (int p = 0; p < nP; p++) {
            lockOf[p] = lockIds.get(policy.lockDomain(pcpus[p]));
            sharers[lockOf[p]]++;
        }
        lockWork = LockWork.of(policy);
        locks = new LockModel(costs, sharers, lockWork != null);
        deferredSaves = new DeferredSaves(nP);
        int nRq = Math.max(1, policy.runqueueCount());
        for (int p = 0; p < nP; p++) {
            rqOf[p] = Math.floorMod(policy.runqueueOf(pcpus[p]), nRq);
        }
        rqs = new RunQueueStats(this, nRq);

        lifecycle = new VmLifecycle(this, registry);
    }

    private static Hypervisor hypervisorOf(ExperimentSpec spec, Registry registry) {
        String name = spec.scheduler().hypervisor() != null ? spec.scheduler().hypervisor()
                : registry.policy(spec.scheduler().policy()).orElseThrow().hypervisor();
        return Hypervisor.fromJson(name).orElseThrow();
    }

    /** Enables the invariant self-check after every event (tests); throws IllegalStateException on a breach. */
    public Simulator withSelfCheck() {
        this.check = new SelfCheck(this);
        return this;
    }

    static long toNanos(double seconds) {
        return Math.round(seconds * 1e9);
    }

    // ------------------------------------------------------------------ main loop

    /** Runs to the end; returns the simulated end time. */
    public long run() {
        start();
        advance(endTime);
        long end = stopRequested ? now : endTime;
        finish(end);
        return end;
    }

    /** Queues the VM starts and timeline actions; once, before the first {@link #advance}. */
    void start() {
        lifecycle.scheduleAll();
    }

    /** Processes the events before {@code until} (at most the end of the run) unless a stop was requested. */
    void advance(long until) {
        long limit = Math.min(until, endTime);
        long maxEvents = limits.maxEvents();
        while (!stopRequested && !queue.isEmpty()) {
            long t = queue.peekTime();
            if (t >= limit) {
                break;
            }
            long ev = queue.pop();
            now = t;
            if (++events > maxEvents) {
                throw new RunLimitExceededException("run exceeded " + maxEvents + " events at simulated time "
                        + now + " ns");
            }
            if ((events & POLL_MASK) == 0) {
                poll();
            }
            dispatch(ev);
            if (check != null) {
                check.afterEvent();
            }
        }
    }

    private void poll() {
        if (control.cancelRequested()) {
            throw new RunCancelledException(now);
        }
        control.progress(Math.min(1.0, (double) now / endTime), now, events);
    }

    private void dispatch(long ev) {
        int target = EventQueue.target(ev);
        switch (EventQueue.kind(ev)) {
            case EV_SCHEDULE -> {
                schedulePending[target] = false;
                schedule(target, false);
            }
            case EV_SLICE -> {
                if (slices.fire(target, EventQueue.version(ev), now)) {
                    schedule(target, false);
                }
            }
            case EV_PLAN -> onPlanEvent(vcpus.get(target), EventQueue.version(ev));
            case EV_THREAD_WAKE -> guest.onSleepEnd(target, EventQueue.version(ev));
            case EV_TIMER -> ctx.fire(target, EventQueue.version(ev));
            case EV_TIMELINE -> lifecycle.applyTimeline(lifecycle.timeline[target], target);
            case EV_VM_START -> lifecycle.startInitialVm(target);
            case EV_CONTEXT_SAVED -> onContextSaved(target);
            default -> throw new IllegalStateException("unknown event kind " + EventQueue.kind(ev));
        }
    }

    void push(long at, int kind, int target, int version) {
        int size = queue.size();
        if (size >= compactAt) {
            queue.removeStale(this::isStale);
            size = queue.size();
            compactAt = Math.max(MIN_COMPACT, 2 * size);
        }
        queue.push(at, EventQueue.pack(kind, target, version));
        if (size >= maxQueueSize) {
            maxQueueSize = size + 1;
        }
    }

    /** Largest number of queued events seen (memory check). */
    int maxQueueSize;

    /** Lazily invalidated events are dropped when the heap doubles, so memory does not grow with run length. */
    private static final int MIN_COMPACT = 1 << 14;
    private int compactAt = MIN_COMPACT;

    private boolean isStale(long ev) {
        int target = EventQueue.target(ev);
        int version = EventQueue.version(ev);
        switch (EventQueue.kind(ev)) {
            case EV_SLICE:
                return slices.isStale(target, version);
            case EV_PLAN: {
                VcpuRun vr = vcpus.get(target);
                return version != vr.planPushId || vr.planPendingAt == NEVER;
            }
            case EV_THREAD_WAKE:
                return guest.isStaleWake(target, version);
            case EV_TIMER:
                return ctx.isStale(target, version);
            default:
                return false;
        }
    }

    // ------------------------------------------------------------------ coalesced timers

    /*
     * Slice timers (SliceTimers) and guest plan events move often (every decision, every rate change).
     * Instead of one queued event per move (the old one left stale), each keeps a deadline and at most
     * one useful queued event: a new event is queued only when the deadline moves earlier than the
     * queued one; a queued event that fires before the deadline re-arms itself at the deadline.
     */

    void setPlan(VcpuRun vr, long deadline) {
        vr.planDeadline = deadline;
        if (deadline < vr.planPendingAt) {
            vr.planPendingAt = deadline;
            push(deadline, EV_PLAN, vr.v.uid, ++vr.planPushId);
        }
    }

    private void onPlanEvent(VcpuRun vr, int id) {
        if (id != vr.planPushId || vr.planPendingAt == NEVER) {
            return;
        }
        vr.planPendingAt = NEVER;
        long deadline = vr.planDeadline;
        if (vr.v.state != VcpuState.RUNNING || deadline == NEVER) {
            return;
        }
        if (deadline <= now) {
            vr.planDeadline = NEVER;
            guest.onPlan(vr);
        } else {
            setPlan(vr, deadline);
        }
    }

    // ------------------------------------------------------------------ hypervisor: tickle, wake, block

    /** Raise SCHEDULE_SOFTIRQ on p (deduplicated; delivered after the IPI latency). */
    void tickle(int p) {
        if (!schedulePending[p]) {
            schedulePending[p] = true;
            push(now + costs.ipiLatencyNanos(), EV_SCHEDULE, p, 0);
            if (trace.enabled()) {
                trace.record(now, p, "tickle", null, -1);
            }
        }
    }

    /** Xen vcpu_wake: a blocked vCPU becomes runnable; the policy picks its pCPU and queues it. */
    void wakeVcpu(VcpuRun vr) {
        Vcpu v = vr.v;
        VcpuStateMachine.move(v, VcpuState.RUNNABLE);
        vr.account(VcpuState.RUNNABLE, now);
        vr.runnableSince = now;
        placeAndWake(vr);
        if (trace.enabled()) {
            trace.record(now, v.processor, "wake", v.vm.name, v.index);
        }
    }

    void placeAndWake(VcpuRun vr) {
        Vcpu v = vr.v;
        int p = policy.pickCpu(v);
        if (p < 0 || p >= nP || !v.allowedOn(p)) {
            throw new IllegalStateException("policy " + policyName + ": pickCpu(" + v + ") returned pCPU " + p
                    + " outside its hard affinity " + v.hardAffinity);
        }
        v.processor = p;
        rqs.enter(vr, rqOf[p]);
        if (check != null) {
            check.onPlaced(vr);
        }
        if (locks.perWork()) {
            takeLockWork(); // work outside a locked path is not charged
            policy.wake(v);
            locks.acquire(lockOf[p], now, locks.otherHold(takeLockWork()));
        } else {
            policy.wake(v);
        }
    }

    /** A policy timer fires under the scheduler lock (of pCPU 0's domain: RTDS's one lock for its replenishment). */
    void runPolicyTimer(Runnable action) {
        if (locks.perWork()) {
            takeLockWork();
            action.run();
            locks.acquire(lockOf[0], now, locks.otherHold(takeLockWork()));
        } else {
            action.run();
        }
    }

    /** Xen SCHEDOP_block: a running vCPU has nothing to run; its pCPU reschedules at once. */
    void blockVcpu(VcpuRun vr) {
        Vcpu v = vr.v;
        VcpuStateMachine.move(v, VcpuState.BLOCKED);
        policy.sleep(v);
        if (trace.enabled()) {
            trace.record(now, v.processor, "block", v.vm.name, v.index);
        }
        schedule(v.processor, false);
    }

    // ------------------------------------------------------------------ the schedule path

    /**
     * schedule() on pCPU p (xen/common/sched/core.c): take the scheduler lock, ask the policy,
     * switch if the answer differs, then context_saved(prev). Costs are charged as pCPU overhead
     * that starts when any earlier overhead on p ends.
     */
    void schedule(int p, boolean yielded) {
        if (deferredSaves.isPending(p)) {
            deferredSaves.requestReschedule(p); // p is still inside context_saved of its last switch
            return;
        }
        Pcpu pc = pcpus[p];
        long start = Math.max(now, accounts.overheadUntil(p));
        Vcpu prev = pc.current;
        VcpuRun prevRun = runningOn[p];
        if (prev == null) {
            idleEnded(p, Math.max(0, start - accounts.idleSince(p)));
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
            VcpuRun nextRun = next == null ? null : vcpus.get(next.uid);
            long sw = costs.contextSwitchNanos();
            if (prev == null && nextRun != null && nextRun.lastPcpu >= 0 && nextRun.lastPcpu != p) {
                sw += costs.tlbFlushNanos(); // seed 000: idle -> vCPU last run elsewhere flushes the TLB
            }
            latencies.contextSwitch(sw);
            switches.switched();
            t += sw;
            boolean busyChange = (prev == null) != (next == null);
            if (busyChange) {
                progress.settleSiblings(p);
            }
            if (prevRun != null) {
                stopRun(prevRun, p, start);
            }
            pc.current = next;
            runningOn[p] = nextRun;
            if (prevRun != null) {
                if (locks.perWork()) {
                    deferredSaves.defer(p, prevRun); // its own step at the end of the switch: it queues for the lock
                    push(t, EV_CONTEXT_SAVED, p, 0);
                } else {
                    t = contextSaved(prevRun, t);
                }
            }
            if (nextRun != null) {
                startRun(nextRun, p, t);
            }
            if (busyChange) {
                progress.replanSiblings(p);
            }
            if (trace.enabled()) {
                trace.record(now, p, "switch", next == null ? null : next.vm.name, next == null ? -1 : next.index);
            }
        } else if (prevRun != null) {
            // Same vCPU continues: its run pauses for the decision overhead.
            long cpu = Math.max(0, start - prevRun.runStart);
            addCpu(prevRun, p, cpu);
            long debtLeft = Math.max(0, prevRun.progressFrom - start);
            prevRun.runStart = t;
            prevRun.lastSettle = t;
            prevRun.progressFrom = t + debtLeft;
            guest.replan(prevRun);
        }
        accounts.addOverhead(p, start, t);
        if (pc.current == null) {
            accounts.idleFrom(p, t);
            if (coreSched != null) {
                coreSched.idleStarted(p);
            }
        }
        slices.set(p, d != null && d.runNanos() >= 0 ? Math.max(t, start + d.runNanos()) : NEVER);
    }

    /** Queue work the policy did since the last call (0 when it reports none). */
    private long takeLockWork() {
        return lockWork == null ? 0 : lockWork.takeLockWork();
    }

    /** context_saved(prev) arriving at {@code t} under prev's lock, then vcpu_migrate_finish; returns when it ends. */
    private long contextSaved(VcpuRun prevRun, long t) {
        Vcpu prev = prevRun.v;
        int savedLock = lockOf[prev.processor];
        if (locks.perWork()) {
            takeLockWork();
        }
        policy.contextSaved(prev);
        long hold = locks.contextSavedHold(locks.perWork() ? takeLockWork() : 0);
        long wait = locks.acquire(savedLock, t, hold);
        latencies.contextSaved(wait + hold);
        if (prevRun.migrating) {
            finishMigration(prevRun);
        }
        return t + wait + hold;
    }

    /**
     * The deferred context_saved of p's last switch: its wait and hold are p's overhead, so the vCPU switched
     * in starts after it (as in Xen, where context_saved runs on p before it returns to the guest).
     */
    private void onContextSaved(int p) {
        VcpuRun prevRun = deferredSaves.take(p);
        long end = contextSaved(prevRun, now);
        accounts.addOverhead(p, now, end);
        VcpuRun cur = runningOn[p];
        if (cur == null) {
            accounts.idleNotBefore(p, end);
        } else if (end > cur.runStart) {
            long shift = end - cur.runStart;
            cur.runStart = end;
            cur.lastSettle = end;
            cur.progressFrom += shift;
            guest.replan(cur);
        }
        if (deferredSaves.takeReschedule(p)) {
            schedule(p, false);
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
            throw new IllegalStateException("policy " + policyName + ": doSchedule on pcpu" + p.id + " at " + now
                    + " ns returned " + next + " " + problem);
        }
    }

    private void startRun(VcpuRun vr, int p, long t) {
        Vcpu v = vr.v;
        if (check != null) {
            check.beforeStart(vr);
        }
        VcpuStateMachine.move(v, VcpuState.RUNNING);
        rqs.leave(vr);
        vr.account(VcpuState.RUNNING, t);
        latencies.runqueueWait(t - vr.runnableSince);
        long debt = caches.switchIn(v.uid, p, vr.lastPcpu >= 0, vr.vm.workload.workingSetKb(), t);
        if (vr.lastPcpu >= 0 && vr.lastPcpu != p) {
            switches.migrated(vr, vr.lastPcpu, p);
            if (trace.enabled()) {
                trace.record(now, p, "migrate", v.vm.name, v.index);
            }
        }
        vr.lastPcpu = p;
        v.processor = p;
        vr.runStart = t;
        vr.runningSince = t;
        vr.lastSettle = t;
        vr.progressFrom = t + debt;
        guest.onVcpuStart(vr, t);
        hyper.vcpuStarted(v);
    }

    /** prev leaves p at {@code at}: account its run; RUNNING becomes RUNNABLE (re-queued later by context_saved). */
    private void stopRun(VcpuRun vr, int p, long at) {
        Vcpu v = vr.v;
        addCpu(vr, p, Math.max(0, at - vr.runStart));
        caches.switchOut(v.uid, p, at);
        vr.planDeadline = NEVER;
        if (v.state == VcpuState.RUNNING) {
            VcpuStateMachine.move(v, VcpuState.RUNNABLE);
        }
        if (v.state == VcpuState.RUNNABLE || vr.migrating) {
            vr.account(VcpuState.RUNNABLE, at);
            vr.runnableSince = at;
            if (!vr.migrating) {
                rqs.enter(vr, rqOf[v.processor]);
            }
        } else {
            vr.account(v.state, at);
        }
        guest.updateStreaming(vr, false);
        hyper.vcpuStopped(v);
    }

    private void idleEnded(int p, long ns) {
        accounts.addIdle(p, ns);
        if (coreSched != null) {
            coreSched.idleEnded(p, ns);
        }
    }

    private void addCpu(VcpuRun vr, int p, long ns) {
        vr.cpuNs += ns;
        vr.timeOnPcpu.add(p, ns);
        accounts.addBusy(p, ns);
    }

    /** Xen vcpu_migrate_finish: after context_saved, a vCPU moved off by an affinity change is woken where allowed. */
    private void finishMigration(VcpuRun vr) {
        vr.migrating = false;
        if (vr.v.state == VcpuState.BLOCKED && vr.vm.vm.alive) {
            VcpuStateMachine.move(vr.v, VcpuState.RUNNABLE);
            placeAndWake(vr);
        }
    }

    // ------------------------------------------------------------------ end of run

    private void finish(long end) {
        now = end;
        for (int p = 0; p < nP; p++) {
            Vcpu c = pcpus[p].current;
            if (c != null) {
                VcpuRun vr = vcpus.get(c.uid);
                progress.settle(vr);
                addCpu(vr, p, Math.max(0, end - vr.runStart));
                if (vr.runningSince > end) {
                    vr.runnableNs -= vr.runningSince - end; // still waiting for its switch to finish at the end
                }
                vr.runStart = Math.max(vr.runStart, end);
            } else {
                idleEnded(p, Math.max(0, end - accounts.idleSince(p)));
                accounts.idleNotBefore(p, end);
            }
            accounts.closeAt(p, end);
        }
        for (VcpuRun vr : vcpus) {
            if (vr.acctState != VcpuState.RUNNING) {
                vr.account(vr.acctState, end);
            }
        }
        rqs.finish();
    }

    /** The stop condition holds (all finite work complete): the run ends now, after the current event. */
    void requestStop() {
        stopRequested = true;
    }

    /** Closes the books of a run stopped by an exception (cancel, event limit), for a partial result. */
    public void finishStopped() {
        finish(now);
    }

    // ------------------------------------------------------------------ accessors for results

    public long now() {
        return now;
    }

    public long events() {
        return events;
    }

    public boolean stoppedEarly() {
        return stopRequested;
    }
}
