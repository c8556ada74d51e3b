package io.schedlab.engine.sim;

import io.schedlab.engine.RunCancelledException;
import io.schedlab.engine.RunControl;
import io.schedlab.engine.RunLimitExceededException;
import io.schedlab.engine.costs.CostModel;
import io.schedlab.engine.metrics.BoundedTrace;
import io.schedlab.engine.metrics.LatencyRecorder;
import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Topology;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.model.Vm;
import io.schedlab.engine.policies.Decision;
import io.schedlab.engine.policies.SchedulerPolicy;
import io.schedlab.engine.registry.Params;
import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.TimelineAction;
import io.schedlab.engine.spec.VcpuAffinitySpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.workloads.Workload;
import java.util.ArrayList;
import java.util.BitSet;
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
    static final long NEVER = Long.MAX_VALUE;
    private static final boolean DEBUG = Boolean.getBoolean("schedlab.debugQueue");
    /** RunControl is polled every this many events (a power of two minus one mask). */
    private static final long POLL_MASK = (1 << 14) - 1;

    final ExperimentSpec spec;
    final Limits limits;
    final RunControl control;
    final CostModel costs;
    final Topology topo;
    final SchedulerPolicy policy;
    final String policyName;
    final SimContext ctx;
    final GuestKernel guest;
    final EventQueue queue = new EventQueue(4096);
    final BoundedTrace trace;
    final long seed;
    final long endTime;
    final boolean stopWhenComplete;

    long now;
    long events;
    boolean stopRequested;
    long stoppedAt = -1;

    // pCPUs
    final int nP;
    final Pcpu[] pcpus;
    final int[][] siblings;
    final int[] lockOf;
    final long[] lockBusyUntil;
    final long[] lockHold;
    final long[] overheadUntil;
    final long[] busyNs;
    final long[] idleNs;
    final long[] overheadNs;
    final long[] idleSince;
    final boolean[] schedulePending;
    /** Slice timer per pCPU: deadline, and the earliest queued event (time, id), coalesced like plan events. */
    final long[] sliceDeadline;
    final long[] slicePendingAt;
    final int[] slicePushId;
    final int[] rqOf;
    final long coldSameSocket;
    final long coldCrossSocket;

    // run queues
    final int nRq;
    final int[] rqLen;
    final long[] rqArea;
    final long[] rqSince;

    // vCPUs and VMs
    final List<VcpuRun> vcpus = new ArrayList<>();
    final List<VmRun> vmRuns = new ArrayList<>();
    final List<Vm> liveVms = new ArrayList<>();
    final List<Vm> liveVmsView = Collections.unmodifiableList(liveVms);
    private final Workload[] initialWorkloads;
    private final Workload[] createdWorkloads;
    private final TimelineAction[] timeline;
    private int vmIds;
    int pendingFinite;
    /** Finite workloads in the whole run (incl. create-vm); all-complete needs at least one. */
    int totalFinite;

    // memory streams per NUMA node
    final int[] streams;
    final List<List<VcpuRun>> streamers = new ArrayList<>();
    double localStreamWork;
    double remoteStreamWork;

    // metrics
    final LatencyRecorder decisionHist = new LatencyRecorder();
    final LatencyRecorder switchHist = new LatencyRecorder();
    final LatencyRecorder savedHist = new LatencyRecorder();
    final LatencyRecorder wakeHist = new LatencyRecorder();
    final LatencyRecorder rqWaitHist = new LatencyRecorder();
    long contextSwitches;
    long migSameCore;
    long migSameSocket;
    long migCross;

    SelfCheck check;

    public Simulator(ExperimentSpec spec, Registry registry, Limits limits, RunControl control) {
        this.spec = spec;
        this.limits = limits;
        this.control = control;
        this.costs = CostModel.from(spec.costs());
        this.topo = TopologyBuilder.build(spec.host());
        this.seed = spec.seed();
        this.endTime = toNanos(spec.durationSeconds());
        this.stopWhenComplete = spec.stopWhen() == ExperimentSpec.StopCondition.ALL_COMPLETE;
        this.trace = Boolean.TRUE.equals(spec.trace().enabled())
                ? new BoundedTrace(control.traceSink(), Math.min(spec.trace().maxEvents(), limits.maxTraceEvents()))
                : BoundedTrace.off();
        this.policyName = spec.scheduler().policy();
        this.policy = registry.policy(policyName).orElseThrow()
                .factory().apply(new Params(spec.scheduler().params()));
        this.ctx = new SimContext(this, Seeds.stream(seed, "policy:" + policyName));
        this.guest = new GuestKernel(this);

        nP = topo.size();
        pcpus = topo.pcpus().toArray(new Pcpu[0]);
        siblings = new int[nP][];
        for (int p = 0; p < nP; p++) {
            siblings[p] = topo.siblings(p).stream().mapToInt(x -> x.id).toArray();
        }
        overheadUntil = new long[nP];
        busyNs = new long[nP];
        idleNs = new long[nP];
        overheadNs = new long[nP];
        idleSince = new long[nP];
        schedulePending = new boolean[nP];
        sliceDeadline = new long[nP];
        slicePendingAt = new long[nP];
        slicePushId = new int[nP];
        java.util.Arrays.fill(sliceDeadline, NEVER);
        java.util.Arrays.fill(slicePendingAt, NEVER);
        rqOf = new int[nP];
        lockOf = new int[nP];
        coldSameSocket = costs.coldCacheSameSocketNanos(topo.l2KbPerCore());
        coldCrossSocket = costs.coldCacheCrossSocketNanos(topo.llcKbPerSocket());
        streams = new int[topo.numaNodes()];
        for (int n = 0; n < topo.numaNodes(); n++) {
            streamers.add(new ArrayList<>());
        }

        policy.init(ctx);
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
        lockBusyUntil = new long[sharers.length];
        lockHold = new long[sharers.length];
        for (int l = 0; l < sharers.length; l++) {
            lockHold[l] = costs.decisionHoldNanos(sharers[l]);
        }
        nRq = Math.max(1, policy.runqueueCount());
        for (int p = 0; p < nP; p++) {
            int rq = policy.runqueueOf(pcpus[p]);
            rqOf[p] = Math.floorMod(rq, nRq);
        }
        rqLen = new int[nRq];
        rqArea = new long[nRq];
        rqSince = new long[nRq];

        initialWorkloads = new Workload[spec.vms().size()];
        for (int i = 0; i < initialWorkloads.length; i++) {
            initialWorkloads[i] = newWorkload(registry, spec.vms().get(i));
            if (initialWorkloads[i].isFinite()) {
                pendingFinite++;
                totalFinite++;
            }
        }
        timeline = sortedTimeline(spec.timeline());
        createdWorkloads = new Workload[timeline.length];
        for (int i = 0; i < timeline.length; i++) {
            if (timeline[i].action() == TimelineAction.Kind.CREATE_VM) {
                createdWorkloads[i] = newWorkload(registry, timeline[i].newVm());
                if (createdWorkloads[i].isFinite()) {
                    pendingFinite++;
                    totalFinite++;
                }
            }
        }
    }

    /** Enables the invariant self-check after every event (tests); throws IllegalStateException on a breach. */
    public Simulator withSelfCheck() {
        this.check = new SelfCheck(this);
        return this;
    }

    static long toNanos(double seconds) {
        return Math.round(seconds * 1e9);
    }

    private static Workload newWorkload(Registry registry, VmSpec vm) {
        return registry.workload(vm.workload().type()).orElseThrow().factory()
                .apply(new Params(vm.workload().params()));
    }

    private static TimelineAction[] sortedTimeline(List<TimelineAction> actions) {
        List<TimelineAction> sorted = new ArrayList<>(actions);
        sorted.sort((a, b) -> Double.compare(a.atSeconds(), b.atSeconds())); // stable
        return sorted.toArray(new TimelineAction[0]);
    }

    // ------------------------------------------------------------------ main loop

    /** Runs to the end; returns the simulated end time. */
    public long run() {
        for (int i = 0; i < spec.vms().size(); i++) {
            push(toNanos(spec.vms().get(i).startAtSeconds()), EV_VM_START, i, 0);
        }
        for (int i = 0; i < timeline.length; i++) {
            push(toNanos(timeline[i].atSeconds()), EV_TIMELINE, i, 0);
        }
        long maxEvents = limits.maxEvents();
        while (!stopRequested && !queue.isEmpty()) {
            long t = queue.peekTime();
            if (t >= endTime) {
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
        long end = stopRequested ? now : endTime;
        if (Boolean.getBoolean("schedlab.debugQueue")) {
            System.err.println("queue size at end " + queue.size() + ", compactAt " + compactAt + " kinds "
                    + java.util.Arrays.toString(kindCounts) + " stale " + java.util.Arrays.toString(staleCounts));
        }
        finish(end);
        return end;
    }

    private void poll() {
        if (control.cancelRequested()) {
            throw new RunCancelledException(now);
        }
        control.progress(Math.min(1.0, (double) now / endTime), now, events);
    }

    final long[] kindCounts = new long[8];
    final long[] staleCounts = new long[8];

    private void dispatch(long ev) {
        int target = EventQueue.target(ev);
        if (DEBUG) {
            kindCounts[EventQueue.kind(ev)]++;
            if (isStale(ev)) {
                staleCounts[EventQueue.kind(ev)]++;
            }
        }
        switch (EventQueue.kind(ev)) {
            case EV_SCHEDULE -> {
                schedulePending[target] = false;
                schedule(target, false);
            }
            case EV_SLICE -> onSliceEvent(target, EventQueue.version(ev));
            case EV_PLAN -> onPlanEvent(vcpus.get(target), EventQueue.version(ev));
            case EV_THREAD_WAKE -> guest.onSleepEnd(target, EventQueue.version(ev));
            case EV_TIMER -> ctx.fire(target, EventQueue.version(ev));
            case EV_TIMELINE -> applyTimeline(timeline[target], target);
            case EV_VM_START -> startVm(spec.vms().get(target), initialWorkloads[target], now);
            default -> throw new IllegalStateException("unknown event kind " + EventQueue.kind(ev));
        }
    }

    void push(long at, int kind, int target, int version) {
        if (queue.size() >= compactAt) {
            queue.removeStale(this::isStale);
            compactAt = Math.max(MIN_COMPACT, 2 * queue.size());
        }
        queue.push(at, EventQueue.pack(kind, target, version));
    }

    /** Lazily invalidated events are dropped when the heap doubles, so memory does not grow with run length. */
    private static final int MIN_COMPACT = 1 << 14;
    private int compactAt = MIN_COMPACT;

    private boolean isStale(long ev) {
        int target = EventQueue.target(ev);
        int version = EventQueue.version(ev);
        switch (EventQueue.kind(ev)) {
            case EV_SLICE:
                return version != slicePushId[target] || slicePendingAt[target] == NEVER;
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
     * Slice timers and guest plan events move often (every decision, every rate change). Instead of
     * one queued event per move (the old one left stale), each keeps a deadline and at most one
     * useful queued event: a new event is queued only when the deadline moves earlier than the
     * queued one; a queued event that fires before the deadline re-arms itself at the deadline.
     */

    private void setSlice(int p, long deadline) {
        sliceDeadline[p] = deadline;
        if (deadline < slicePendingAt[p]) {
            slicePendingAt[p] = deadline;
            push(deadline, EV_SLICE, p, ++slicePushId[p]);
        }
    }

    private void onSliceEvent(int p, int id) {
        if (id != slicePushId[p] || slicePendingAt[p] == NEVER) {
            return; // superseded by an earlier one
        }
        slicePendingAt[p] = NEVER;
        long deadline = sliceDeadline[p];
        if (deadline <= now) {
            sliceDeadline[p] = NEVER;
            schedule(p, false);
        } else if (deadline != NEVER) {
            setSlice(p, deadline);
        }
    }

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
        v.state = VcpuState.RUNNABLE;
        vr.account(VcpuState.RUNNABLE, now);
        vr.runnableSince = now;
        placeAndWake(vr);
        if (trace.enabled()) {
            trace.record(now, v.processor, "wake", v.vm.name, v.index);
        }
    }

    private void placeAndWake(VcpuRun vr) {
        Vcpu v = vr.v;
        int p = policy.pickCpu(v);
        if (p < 0 || p >= nP || !v.allowedOn(p)) {
            throw new IllegalStateException("policy " + policyName + ": pickCpu(" + v + ") returned pCPU " + p
                    + " outside its hard affinity " + v.hardAffinity);
        }
        v.processor = p;
        rqEnter(vr, rqOf[p]);
        policy.wake(v);
    }

    /** Xen SCHEDOP_block: a running vCPU has nothing to run; its pCPU reschedules at once. */
    void blockVcpu(VcpuRun vr) {
        Vcpu v = vr.v;
        v.state = VcpuState.BLOCKED;
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
        Pcpu pc = pcpus[p];
        long start = Math.max(now, overheadUntil[p]);
        Vcpu prev = pc.current;
        VcpuRun prevRun = prev == null ? null : vcpus.get(prev.uid);
        if (prev == null) {
            idleNs[p] += Math.max(0, start - idleSince[p]);
        } else {
            settle(prevRun);
        }
        int lock = lockOf[p];
        long wait = Math.max(0, lockBusyUntil[lock] - start);
        long hold = lockHold[lock];
        lockBusyUntil[lock] = start + wait + hold;
        Decision d = policy.doSchedule(pc, prev, yielded);
        Vcpu next = d == null ? null : d.next();
        checkDecision(pc, prev, next);
        decisionHist.record(wait + hold);
        long t = start + wait + hold;

        if (next != prev) {
            VcpuRun nextRun = next == null ? null : vcpus.get(next.uid);
            long sw = costs.contextSwitchNanos();
            if (prev == null && nextRun != null && nextRun.lastPcpu >= 0 && nextRun.lastPcpu != p) {
                sw += costs.tlbFlushNanos(); // seed 000: idle -> vCPU last run elsewhere flushes the TLB
            }
            switchHist.record(sw);
            contextSwitches++;
            t += sw;
            boolean busyChange = (prev == null) != (next == null);
            if (busyChange) {
                settleSiblings(p);
            }
            if (prevRun != null) {
                stopRun(prevRun, p, start);
            }
            pc.current = next;
            if (prevRun != null) {
                int savedLock = lockOf[prev.processor];
                long savedWait = Math.max(0, lockBusyUntil[savedLock] - t);
                long savedHold = costs.contextSavedNanos();
                lockBusyUntil[savedLock] = t + savedWait + savedHold;
                savedHist.record(savedWait + savedHold);
                t += savedWait + savedHold;
                policy.contextSaved(prev);
                if (prevRun.migrating) {
                    finishMigration(prevRun);
                }
            }
            if (nextRun != null) {
                startRun(nextRun, p, t);
            }
            if (busyChange) {
                replanSiblings(p);
            }
            if (trace.enabled()) {
                trace.record(start, p, "switch", next == null ? null : next.vm.name, next == null ? -1 : next.index);
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
        overheadNs[p] += t - start;
        overheadUntil[p] = t;
        if (pc.current == null) {
            idleSince[p] = t;
        }
        setSlice(p, d != null && d.runNanos() >= 0 ? Math.max(t, start + d.runNanos()) : NEVER);
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
        v.state = VcpuState.RUNNING;
        rqLeave(vr);
        vr.account(VcpuState.RUNNING, t);
        rqWaitHist.record(t - vr.runnableSince);
        long debt = 0;
        if (vr.lastPcpu >= 0 && vr.lastPcpu != p) {
            int from = vr.lastPcpu;
            if (topo.sameCore(from, p)) {
                vr.migSameCore++;
                migSameCore++;
            } else if (topo.sameSocket(from, p)) {
                vr.migSameSocket++;
                migSameSocket++;
                debt = coldSameSocket;
            } else {
                vr.migCross++;
                migCross++;
                debt = coldCrossSocket;
            }
            if (trace.enabled()) {
                trace.record(t, p, "migrate", v.vm.name, v.index);
            }
        }
        vr.lastPcpu = p;
        v.processor = p;
        vr.runStart = t;
        vr.runningSince = t;
        vr.lastSettle = t;
        vr.progressFrom = t + debt;
        guest.onVcpuStart(vr, t);
    }

    /** prev leaves p at {@code at}: account its run; RUNNING becomes RUNNABLE (re-queued later by context_saved). */
    private void stopRun(VcpuRun vr, int p, long at) {
        Vcpu v = vr.v;
        addCpu(vr, p, Math.max(0, at - vr.runStart));
        vr.planDeadline = NEVER;
        if (v.state == VcpuState.RUNNING) {
            v.state = VcpuState.RUNNABLE;
        }
        if (v.state == VcpuState.RUNNABLE || vr.migrating) {
            vr.account(VcpuState.RUNNABLE, at);
            vr.runnableSince = at;
            if (!vr.migrating) {
                rqEnter(vr, rqOf[v.processor]);
            }
        } else {
            vr.account(v.state, at);
        }
        guest.updateStreaming(vr, false);
    }

    private void addCpu(VcpuRun vr, int p, long ns) {
        vr.cpuNs += ns;
        vr.timeOnPcpu[p] += ns;
        busyNs[p] += ns;
    }

    /** Xen vcpu_migrate_finish: after context_saved, a vCPU moved off by an affinity change is woken where allowed. */
    private void finishMigration(VcpuRun vr) {
        vr.migrating = false;
        if (vr.v.state == VcpuState.BLOCKED && vr.vm.vm.alive) {
            vr.v.state = VcpuState.RUNNABLE;
            placeAndWake(vr);
        }
    }

    // ------------------------------------------------------------------ progress bookkeeping

    /** Bring the running vCPU's thread progress and counters up to now (at its current rate). */
    void settle(VcpuRun vr) {
        if (vr.v.state != VcpuState.RUNNING || now <= vr.lastSettle) {
            return;
        }
        long from = Math.max(vr.lastSettle, vr.runStart);
        if (now > from) {
            GuestThreadRun th = vr.thread;
            if (th != null) {
                long dt = now - from;
                th.sliceUsed += dt;
                if (th.mode == GuestThreadRun.COMPUTE) {
                    long pf = Math.max(from, vr.progressFrom);
                    if (now > pf) {
                        double done = (now - pf) * vr.rate;
                        th.remaining -= done;
                        if (th.memoryStream) {
                            if (pcpus[vr.v.processor].numaNode == vr.vm.vm.memoryNode) {
                                localStreamWork += done;
                            } else {
                                remoteStreamWork += done;
                            }
                        }
                    }
                } else if (th.mode == GuestThreadRun.SPIN) {
                    vr.spinNs += dt;
                }
            }
        }
        vr.lastSettle = now;
    }

    private void settleSiblings(int p) {
        for (int s : siblings[p]) {
            Vcpu c = pcpus[s].current;
            if (c != null) {
                settle(vcpus.get(c.uid));
            }
        }
    }

    private void replanSiblings(int p) {
        for (int s : siblings[p]) {
            Vcpu c = pcpus[s].current;
            if (c != null) {
                guest.replan(vcpus.get(c.uid));
            }
        }
    }

    /** Progress rate of vCPU vr's thread on pCPU p: SMT sibling contention x NUMA bandwidth share and distance. */
    double rate(VcpuRun vr, GuestThreadRun th) {
        int p = vr.v.processor;
        double r = 1.0;
        for (int s : siblings[p]) {
            if (pcpus[s].current != null) {
                r *= costs.smtFactor(); // VMware: slightly more than half of solo throughput
                break;
            }
        }
        if (th.memoryStream) {
            int node = vr.vm.vm.memoryNode;
            double demand = Math.max(1, streams[node]) * costs.streamBandwidthMBps();
            r *= Math.min(1.0, topo.nodeBandwidthMBps()[node] / demand);
            int here = pcpus[p].numaNode;
            if (here != node) {
                r *= 10.0 / topo.numaDistance()[here][node]; // ACPI SLIT: 10 = local, 21 = 2.1x slower
            }
        }
        return r;
    }

    // ------------------------------------------------------------------ run queue length accounting

    private void rqEnter(VcpuRun vr, int rq) {
        rqLeave(vr);
        rqTouch(rq);
        rqLen[rq]++;
        vr.countedRq = rq;
    }

    private void rqLeave(VcpuRun vr) {
        int rq = vr.countedRq;
        if (rq >= 0) {
            rqTouch(rq);
            rqLen[rq]--;
            vr.countedRq = -1;
        }
    }

    private void rqTouch(int rq) {
        rqArea[rq] += rqLen[rq] * (now - rqSince[rq]);
        rqSince[rq] = now;
    }

    // ------------------------------------------------------------------ VMs and timeline

    Vm startVm(VmSpec s, Workload workload, long at) {
        Vm vm = new Vm(vmIds++, s.name(), s.weight(), s.cap(), s.memoryMb(), s.numaNode());
        VmRun run = new VmRun(vm, s, workload);
        run.startedAt = at;
        run.countedFinite = workload.isFinite();
        vmRuns.add(run);
        liveVms.add(vm);
        for (int i = 0; i < s.vcpus(); i++) {
            Vcpu v = new Vcpu(vm, i, vcpus.size(), s.placement().get(i));
            setAffinity(v.hardAffinity, hardOf(s, i));
            setAffinity(v.softAffinity, softOf(s, i));
            vm.vcpus.add(v);
            VcpuRun vr = new VcpuRun(v, run, nP);
            vr.stateSince = at;
            vcpus.add(vr);
            run.vcpus.add(vr);
        }
        for (Vcpu v : vm.vcpus) {
            policy.addVcpu(v);
        }
        for (VcpuRun vr : run.vcpus) {
            vr.v.state = VcpuState.BLOCKED;
            vr.account(VcpuState.BLOCKED, at);
        }
        if (trace.enabled()) {
            trace.record(at, -1, "vm-start", vm.name, -1);
        }
        guest.startWorkload(run);
        checkAllComplete();
        return vm;
    }

    private static List<Integer> hardOf(VmSpec s, int i) {
        for (VcpuAffinitySpec o : s.vcpuAffinity()) {
            if (o.vcpu() == i) {
                return o.hard();
            }
        }
        return s.hardAffinity();
    }

    private static List<Integer> softOf(VmSpec s, int i) {
        for (VcpuAffinitySpec o : s.vcpuAffinity()) {
            if (o.vcpu() == i) {
                return o.soft();
            }
        }
        return s.softAffinity();
    }

    private static void setAffinity(BitSet set, List<Integer> cpus) {
        set.clear();
        for (int c : cpus) {
            set.set(c);
        }
    }

    private void applyTimeline(TimelineAction a, int index) {
        if (a.action() == TimelineAction.Kind.CREATE_VM) {
            startVm(a.newVm(), createdWorkloads[index], now);
            return;
        }
        VmRun run = liveVm(a.vm());
        if (run == null) {
            return; // not started yet or already shut down: nothing to act on
        }
        switch (a.action()) {
            case PIN, UNPIN -> {
                for (VcpuRun vr : targets(run, a.vcpu())) {
                    setAffinity(vr.v.hardAffinity, a.pcpus());
                    affinityChanged(vr);
                }
            }
            case SOFT_AFFINITY -> {
                for (VcpuRun vr : targets(run, a.vcpu())) {
                    setAffinity(vr.v.softAffinity, a.pcpus());
                    policy.affinityChanged(vr.v);
                }
            }
            case SET_WEIGHT -> {
                run.vm.weight = a.weight();
                policy.domainParamsChanged(run.vm);
            }
            case SET_CAP -> {
                run.vm.cap = a.cap();
                policy.domainParamsChanged(run.vm);
            }
            case SHUTDOWN -> shutdown(run);
            default -> throw new IllegalStateException("unhandled action " + a.action());
        }
    }

    private VmRun liveVm(String name) {
        for (VmRun r : vmRuns) {
            if (r.vm.alive && r.vm.name.equals(name)) {
                return r;
            }
        }
        return null;
    }

    private static List<VcpuRun> targets(VmRun run, Integer vcpu) {
        return vcpu == null ? run.vcpus : List.of(run.vcpus.get(vcpu));
    }

    /**
     * Hard affinity changed (xl vcpu-pin -> vcpu_set_affinity): if v's pCPU is no longer allowed,
     * Xen's vcpu_migrate_start sets _VPF_migrating and puts it to sleep; a running vCPU is switched
     * away, and after context_saved vcpu_migrate_finish wakes it on an allowed pCPU.
     */
    private void affinityChanged(VcpuRun vr) {
        Vcpu v = vr.v;
        policy.affinityChanged(v);
        if (v.allowedOn(v.processor)) {
            return;
        }
        if (v.state == VcpuState.RUNNING) {
            vr.migrating = true;
            v.state = VcpuState.BLOCKED;
            policy.sleep(v);
            schedule(v.processor, false);
        } else if (v.state == VcpuState.RUNNABLE) {
            v.state = VcpuState.BLOCKED;
            policy.sleep(v);
            v.state = VcpuState.RUNNABLE;
            placeAndWake(vr);
        }
    }

    private void shutdown(VmRun run) {
        Vm vm = run.vm;
        vm.alive = false;
        guest.killThreads(run);
        for (VcpuRun vr : run.vcpus) {
            Vcpu v = vr.v;
            if (v.state == VcpuState.RUNNING) {
                v.state = VcpuState.BLOCKED;
                policy.sleep(v);
                schedule(v.processor, false);
            } else if (v.state == VcpuState.RUNNABLE) {
                v.state = VcpuState.BLOCKED;
                policy.sleep(v);
                rqLeave(vr);
            }
            vr.migrating = false;
        }
        for (VcpuRun vr : run.vcpus) {
            policy.removeVcpu(vr.v);
            vr.v.state = VcpuState.OFFLINE;
            vr.account(VcpuState.OFFLINE, now);
            vr.planDeadline = NEVER;
        }
        liveVms.remove(vm);
        run.endedAt = now;
        if (run.countedFinite && run.completedAt < 0) {
            pendingFinite--;
        }
        if (trace.enabled()) {
            trace.record(now, -1, "shutdown", vm.name, -1);
        }
        checkAllComplete();
    }

    /** A finite VM's last thread exited. */
    void vmCompleted(VmRun run) {
        run.completedAt = now;
        if (run.countedFinite) {
            pendingFinite--;
        }
        checkAllComplete();
    }

    private void checkAllComplete() {
        if (stopWhenComplete && totalFinite > 0 && pendingFinite <= 0) {
            stopRequested = true;
            stoppedAt = now;
        }
    }

    // ------------------------------------------------------------------ end of run

    private void finish(long end) {
        now = end;
        for (int p = 0; p < nP; p++) {
            Vcpu c = pcpus[p].current;
            if (c != null) {
                VcpuRun vr = vcpus.get(c.uid);
                settle(vr);
                addCpu(vr, p, Math.max(0, end - vr.runStart));
                vr.runStart = Math.max(vr.runStart, end);
            } else {
                idleNs[p] += Math.max(0, end - idleSince[p]);
                idleSince[p] = Math.max(idleSince[p], end);
            }
            if (overheadUntil[p] > end) {
                overheadNs[p] -= overheadUntil[p] - end; // overhead charged past the end of the run
            }
        }
        for (VcpuRun vr : vcpus) {
            if (vr.acctState != VcpuState.RUNNING) {
                vr.account(vr.acctState, end);
            }
        }
        for (int rq = 0; rq < nRq; rq++) {
            rqTouch(rq);
        }
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
