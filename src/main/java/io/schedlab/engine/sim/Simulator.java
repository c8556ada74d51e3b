package io.schedlab.engine.sim;

import io.schedlab.engine.run.RunCancelledException;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.run.RunLimitExceededException;
import io.schedlab.engine.costs.CostModel;
import io.schedlab.engine.hypervisor.Hypervisor;
import io.schedlab.engine.hypervisor.HypervisorLayer;
import io.schedlab.engine.recording.BoundedTrace;
import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Topology;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.policies.SchedulerPolicy;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;

/**
 * The discrete-event simulator: a virtual nanosecond clock and the dispatch of its events to the
 * hypervisor's {@link SchedulePath} (the one caller of the policy's hooks), the guest kernels
 * ({@link GuestKernel}), the VM lifecycle and the policy's timers. The vCPU and VM tables are
 * {@link RunTables}; results and the self-check read the run through {@link RunView}.
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

    private final ExperimentSpec spec;
    private final Limits limits;
    private final RunControl control;
    private final CostModel costs;
    private final Topology topo;
    private final String policyName;
    /** The policy's registry entry. */
    private final PolicyDescriptor descriptor;
    private final SimContext ctx;
    /** The hypervisor's schedule path: the one caller of the policy's hooks. */
    private final SchedulePath path;
    /** Xen's or KVM's layer: VM exits and their handlers. */
    private final HypervisorLayer hyper;
    private final GuestKernel guest;
    private final EventQueue queue;
    private final BoundedTrace trace;
    private final long seed;
    private final long endTime;
    private final boolean stopWhenComplete;

    private long now;
    private long events;
    /** Set by {@link #requestStop()}: the main loop ends after the current event. */
    private boolean stopRequested;

    // pCPUs
    private final int nP;
    private final Pcpu[] pcpus;
    /** NUMA node of each pCPU. */
    private final int[] numaNodeOf;
    private final int[][] siblings;

    /** The vCPU and VM tables. */
    private final RunTables tables = new RunTables();
    private final VmLifecycle lifecycle;
    private final Progress progress;

    // metrics
    private final RunLatencies latencies = new RunLatencies();

    private SelfCheck check;

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
        SchedulerPolicy policy = descriptor.factory().apply(new Params(spec.scheduler().params()));
        this.ctx = new SimContext(this, Seeds.stream(seed, "policy:" + policyName));
        this.guest = new GuestKernel(this);

        nP = topo.size();
        pcpus = topo.pcpus().toArray(new Pcpu[0]);
        numaNodeOf = new int[nP];
        for (int p = 0; p < nP; p++) {
            numaNodeOf[p] = pcpus[p].numaNode;
        }
        siblings = new int[nP][];
        for (int p = 0; p < nP; p++) {
            siblings[p] = topo.siblings(p).stream().mapToInt(x -> x.id).toArray();
        }
        progress = new Progress(this);

        Hypervisor hypervisor = hypervisorOf(spec, registry);
        path = SchedulePath.of(hypervisor, this, policy);
        hyper = hypervisor.create(new Params(spec.scheduler().params()), new SimHypervisorHost(this));
        lifecycle = new VmLifecycle(this, registry);
    }

    private static Hypervisor hypervisorOf(ExperimentSpec spec, Registry registry) {
        String name = spec.scheduler().hypervisor() != null ? spec.scheduler().hypervisor()
                : registry.policy(spec.scheduler().policy()).orElseThrow().hypervisor();
        return Hypervisor.fromJson(name).orElseThrow();
    }

    /** Enables the invariant self-check after every event (tests); throws IllegalStateException on a breach. */
    public Simulator withSelfCheck() {
        this.check = new SelfCheck(view());
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

    /** Processes the events at or before {@code nanos}; the clock then reads at least {@code nanos} (tests). */
    void advanceThrough(long nanos) {
        advance(nanos + 1);
        now = Math.max(now, nanos);
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
            case EV_SCHEDULE -> path.softirq(target);
            case EV_SLICE -> path.sliceEvent(target, EventQueue.version(ev));
            case EV_PLAN -> onPlanEvent(tables.vcpu(target), EventQueue.version(ev));
            case EV_THREAD_WAKE -> guest.onSleepEnd(target, EventQueue.version(ev));
            case EV_TIMER -> ctx.fire(target, EventQueue.version(ev));
            case EV_TIMELINE -> lifecycle.applyTimeline(lifecycle.timeline[target], target);
            case EV_VM_START -> lifecycle.startInitialVm(target);
            case EV_CONTEXT_SAVED -> path.switchTailEvent(target);
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
    private int maxQueueSize;

    /** Lazily invalidated events are dropped when the heap doubles, so memory does not grow with run length. */
    private static final int MIN_COMPACT = 1 << 14;
    private int compactAt = MIN_COMPACT;

    private boolean isStale(long ev) {
        int target = EventQueue.target(ev);
        int version = EventQueue.version(ev);
        switch (EventQueue.kind(ev)) {
            case EV_SLICE:
                return path.slices.isStale(target, version);
            case EV_PLAN: {
                VcpuRun vr = tables.vcpu(target);
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

    // ------------------------------------------------------------------ end of run

    private void finish(long end) {
        now = end;
        path.finish(end);
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

    /** The run as result building and the self-check read it. */
    public RunView view() {
        return new SimulatorView(this);
    }

    public long now() {
        return now;
    }

    public long events() {
        return events;
    }

    public boolean stoppedEarly() {
        return stopRequested;
    }

    // ------------------------------------------------------------------ the run's parts, read by the engine

    ExperimentSpec spec() {
        return spec;
    }

    CostModel costs() {
        return costs;
    }

    Topology topo() {
        return topo;
    }

    String policyName() {
        return policyName;
    }

    /** The policy's registry entry. */
    PolicyDescriptor descriptor() {
        return descriptor;
    }

    SimContext ctx() {
        return ctx;
    }

    /** The hypervisor's schedule path: the one caller of the policy's hooks. */
    SchedulePath path() {
        return path;
    }

    /** Xen's or KVM's layer: VM exits and their handlers. */
    HypervisorLayer hyper() {
        return hyper;
    }

    GuestKernel guest() {
        return guest;
    }

    EventQueue queue() {
        return queue;
    }

    BoundedTrace trace() {
        return trace;
    }

    long seed() {
        return seed;
    }

    boolean stopWhenComplete() {
        return stopWhenComplete;
    }

    /** Number of pCPUs. */
    int nP() {
        return nP;
    }

    Pcpu[] pcpus() {
        return pcpus;
    }

    /** NUMA node of each pCPU. */
    int[] numaNodeOf() {
        return numaNodeOf;
    }

    /** The SMT siblings of each pCPU. */
    int[][] siblings() {
        return siblings;
    }

    /** The vCPU and VM tables. */
    RunTables tables() {
        return tables;
    }

    VmLifecycle lifecycle() {
        return lifecycle;
    }

    Progress progress() {
        return progress;
    }

    RunLatencies latencies() {
        return latencies;
    }

    /** The invariant self-check, or null when it is off. */
    SelfCheck selfCheck() {
        return check;
    }

    /** Largest number of queued events seen (memory check). */
    int maxQueueSize() {
        return maxQueueSize;
    }
}
