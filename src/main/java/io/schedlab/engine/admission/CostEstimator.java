package io.schedlab.engine.admission;

import io.schedlab.engine.registry.CostHints;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.HashMap;
import java.util.Map;

/**
 * Estimates events and heap of a normalized experiment from its shape, without running it
 * (docs/admission.md). Events per simulated second are the sum of
 * <ul>
 * <li>workload events: each guest thread's wake/run/block cycle (interactive think + burst, idle
 * wake interval, spinlock outside + inside, parallel-build job + I/O, memory-bandwidth phase), each
 * cycle costing a few engine events ({@link #EVENTS_PER_CYCLE}: wake, tickle, schedule, block), slowed down
 * in proportion when the threads want more CPU than the host has;</li>
 * <li>scheduler events: every pCPU that has more runnable vCPUs than it can run switches once per
 * slice, the slice being the policy's own (its descriptor's {@link CostHints}), each switch
 * {@link #EVENTS_PER_SWITCH} events;</li>
 * <li>the policy's periodic work per pCPU ({@link CostHints#periodicEventsPerPcpuSecond}).</li>
 * </ul>
 * times the simulated seconds: the duration, or for finite work the time it needs at the host's
 * capacity when that is shorter. Heap: per vCPU and guest thread state, plus trace rows kept.
 * The constants are calibrated against measured runs ({@code CostEstimatorTest}: within 2x).
 */
public final class CostEstimator {

    /** Engine events per guest wake/block cycle: wake, tickle, schedule in, block, schedule out (measured 4-6). */
    static final double EVENTS_PER_CYCLE = 5;
    /** Engine events per spinlock cycle (the thread spins instead of blocking: acquire, release). */
    static final double EVENTS_PER_SPIN_CYCLE = 2;
    /** Engine events per memory-bandwidth phase (a plan change, no wake-up). */
    static final double EVENTS_PER_PHASE = 1;
    /** Engine events per slice switch on a contended pCPU (slice timer, schedule, context switch, runqueue). */
    static final double EVENTS_PER_SWITCH = 5;
    /** Heap per guest thread (thread state, its plan and RNG), measured: 2.1 M threads took ~1.4 GB. */
    static final long BYTES_PER_THREAD = 700;
    /** Heap per vCPU (run state, statistics, latency histogram). */
    static final long BYTES_PER_VCPU = 24 * 1024;
    /** Heap per kept trace row (BoundedTrace keeps rows until the run ends). */
    static final long BYTES_PER_TRACE_ROW = 64;
    /** Slice of a policy without cost hints: Xen credit's default (xen/common/sched/credit.c CSCHED_DEFAULT_TSLICE_MS 30). */
    static final double DEFAULT_SLICE_SECONDS = 0.030;
    /** Heap of the engine and a result document without VMs. */
    static final long BASE_BYTES = 4L * 1024 * 1024;

    private CostEstimator() {
    }

    /** The estimate for a normalized spec (every default filled in, as the validator returns it). */
    public static CostEstimate estimate(ExperimentSpec spec, Registry registry) {
        int pcpus = pcpus(spec.host());
        double duration = spec.durationSeconds() == null ? 0 : spec.durationSeconds();
        double demand = 0; // CPUs the threads want
        double cycleRate = 0; // wake/block cycles per second if they all got the CPU they want
        double finiteWork = 0; // CPU-seconds of finite work
        boolean allFinite = true;
        long threads = 0;
        int vcpus = 0;
        for (VmSpec vm : spec.vms() == null ? java.util.List.<VmSpec>of() : spec.vms()) {
            int n = vm.vcpus() == null ? 1 : vm.vcpus();
            vcpus += n;
            Load load = load(vm.workload(), n);
            demand += Math.min(n, load.demand);
            cycleRate += load.cycleRate * load.eventsPerCycle;
            threads += load.threads;
            finiteWork += load.finiteWork;
            allFinite &= load.finite && !"idle".equals(type(vm.workload()));
        }
        double seconds = duration;
        if (allFinite && finiteWork > 0) {
            seconds = Math.min(duration, finiteWork / Math.max(1, Math.min(pcpus, demand)));
        }
        double slowdown = demand > pcpus ? pcpus / demand : 1; // overloaded: cycles stretch
        double workloadEvents = cycleRate * slowdown;
        double contendedPcpus = vcpus > pcpus ? Math.min(pcpus, demand) : 0;
        double schedulerEvents = contendedPcpus * EVENTS_PER_SWITCH / sliceSeconds(spec, registry)
                + pcpus * periodicPerPcpu(spec, registry);
        double events = (workloadEvents + schedulerEvents) * seconds;
        long traceRows = spec.trace() != null && Boolean.TRUE.equals(spec.trace().enabled())
                ? (long) Math.min(events, spec.trace().maxEvents() == null ? Long.MAX_VALUE : spec.trace().maxEvents())
                : 0;
        long heap = BASE_BYTES + vcpus * BYTES_PER_VCPU + threads * BYTES_PER_THREAD + traceRows * BYTES_PER_TRACE_ROW;
        return new CostEstimate((long) Math.min(Long.MAX_VALUE / 2, Math.ceil(events)), heap, seconds);
    }

    /** A workload's CPU demand, cycle rate, threads, finite work (CPU-seconds) and engine events per cycle. */
    private record Load(double demand, double cycleRate, long threads, double finiteWork, boolean finite,
            double eventsPerCycle) {

        Load(double demand, double cycleRate, long threads, double finiteWork, boolean finite) {
            this(demand, cycleRate, threads, finiteWork, finite, EVENTS_PER_CYCLE);
        }
    }

    private static Load load(WorkloadSpec w, int vcpus) {
        Map<String, Object> p = w == null || w.params() == null ? Map.of() : w.params();
        switch (type(w)) {
            case "idle" -> {
                long t = integer(p, "threads", 1);
                double cycle = integer(p, "wakeIntervalMs", 100) / 1e3;
                double burst = integer(p, "burstUs", 200) / 1e6;
                return new Load(t * burst / (cycle + burst), t / (cycle + burst), t, 0, false);
            }
            case "interactive" -> {
                long t = integer(p, "threads", 1);
                double think = number(p, "thinkMeanMs", 10) / 1e3;
                double burst = number(p, "burstMeanUs", 200) / 1e6;
                long wakeups = integer(p, "wakeups", 0);
                return new Load(t * burst / (think + burst), t / (think + burst), t, wakeups * t * burst, wakeups > 0);
            }
            case "request-response" -> {
                long t = integer(p, "connections", 1);
                double roundTrip = number(p, "roundTripUs", 50) / 1e6;
                double service = number(p, "serviceUs", 20) / 1e6;
                long transactions = integer(p, "transactions", 0);
                return new Load(t * service / (roundTrip + service), t / (roundTrip + service), t,
                        transactions * t * service, transactions > 0);
            }
            case "spinlock" -> {
                long t = integer(p, "threads", 0) == 0 ? vcpus : integer(p, "threads", 0);
                double cycle = (number(p, "outsideUs", 50) + number(p, "insideUs", 5)) / 1e6;
                long records = integer(p, "records", 0);
                // a TLB shootdown: one handler event per target (the other busy vCPUs) and the sender's go-on
                double shootdownEvents = integer(p, "shootdowns", 0) * (double) Math.min(t, vcpus);
                return new Load(t, t / cycle, t, records * t * cycle, records > 0,
                        EVENTS_PER_SPIN_CYCLE + shootdownEvents);
            }
            case "hackbench" -> {
                long t = 2 * integer(p, "groups", 10) * integer(p, "fds", 20);
                double message = (number(p, "sendUs", 4) + number(p, "recvUs", 4) + 2 * number(p, "lockUs", 1)) / 1e6;
                double messages = (double) integer(p, "groups", 10) * integer(p, "fds", 20) * integer(p, "fds", 20)
                        * integer(p, "loops", 100);
                // at most one thread per vCPU moves messages at a time
                return new Load(t, Math.min(t, vcpus) / message, t, messages * message, true);
            }
            case "parallel-build" -> {
                long t = integer(p, "parallelism", 1);
                double job = number(p, "jobMeanMs", 72) / 1e3;
                double io = number(p, "ioMeanMs", 1) / 1e3;
                long jobs = integer(p, "jobs", 1000);
                return new Load(t * job / (job + io), t / (job + io), t,
                        jobs * job + number(p, "serialTailMs", 6000) / 1e3, true);
            }
            case "memory-bandwidth" -> {
                long t = integer(p, "threads", 1);
                double phase = integer(p, "phaseUs", 1000) / 1e6;
                double total = number(p, "totalMb", 0);
                double work = total > 0 ? total / number(p, "streamMBps", 5000) : 0;
                return new Load(t, t / phase, t, work, total > 0, EVENTS_PER_PHASE);
            }
            case "cpu-loop" -> {
                long t = integer(p, "threads", 1);
                double work = number(p, "workSeconds", 10);
                return new Load(t, 0, t, work > 0 ? work * t : 0, work > 0);
            }
            default -> {
                // trace and unknown types: one cycle per pCPU-millisecond per thread, always busy
                return new Load(vcpus, vcpus * 1000.0, vcpus, 0, false);
            }
        }
    }

    /** The slice a contended pCPU switches at, in seconds: the policy's {@link CostHints}, else Xen credit's 30 ms. */
    static double sliceSeconds(ExperimentSpec spec, Registry registry) {
        PolicyDescriptor d = descriptor(spec, registry);
        return d == null ? DEFAULT_SLICE_SECONDS
                : d.capability(CostHints.class).map(h -> h.sliceSeconds(params(spec, d))).orElse(DEFAULT_SLICE_SECONDS);
    }

    /** The policy's own periodic events per pCPU and second ({@link CostHints}; none without hints). */
    static double periodicPerPcpu(ExperimentSpec spec, Registry registry) {
        PolicyDescriptor d = descriptor(spec, registry);
        return d == null ? 0 : d.capability(CostHints.class).map(h -> h.periodicEventsPerPcpuSecond(params(spec, d)))
                .orElse(0.0);
    }

    private static PolicyDescriptor descriptor(ExperimentSpec spec, Registry registry) {
        return spec.scheduler() == null || spec.scheduler().policy() == null ? null
                : registry.policy(spec.scheduler().policy()).orElse(null);
    }

    /** The scheduler parameters with the descriptor's defaults under any the spec leaves out. */
    private static Params params(ExperimentSpec spec, PolicyDescriptor d) {
        Map<String, Object> values = new HashMap<>();
        d.parameters().forEach(p -> values.put(p.name(), p.defaultValue()));
        if (spec.scheduler().params() != null) {
            values.putAll(spec.scheduler().params());
        }
        return new Params(values);
    }

    private static int pcpus(HostSpec h) {
        if (h == null) {
            return 1;
        }
        return Math.max(1, value(h.sockets()) * value(h.coresPerSocket()) * value(h.threadsPerCore()));
    }

    private static int value(Integer i) {
        return i == null ? 1 : i;
    }

    private static String type(WorkloadSpec w) {
        return w == null || w.type() == null ? "idle" : w.type();
    }

    private static long integer(Map<String, Object> p, String name, long fallback) {
        return p.get(name) instanceof Number n ? n.longValue() : fallback;
    }

    private static double number(Map<String, Object> p, String name, double fallback) {
        return p.get(name) instanceof Number n ? n.doubleValue() : fallback;
    }
}
