package io.schedlab.engine.workloads;

import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.workloads.WorkloadDescriptor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An ebizzy-like lock-heavy workload (ebizzy 0.3: threads search memory records; much of the time goes
 * to the address-space lock). Each thread loops: work outside the lock ({@code outsideUs}), take one
 * of {@code locks} spinlocks ({@link Phase.Acquire}), work inside it ({@code insideUs}), release it,
 * and count one record. Lock waiters spin on their vCPU, so when the hypervisor preempts a lock
 * holder's vCPU every waiter burns CPU without progress and records/s collapses: the effect that
 * pause-loop exiting (E4) addresses. With {@code shootdowns} each record then ends with that many TLB
 * shootdowns ({@link Phase.FlushTlb}): ebizzy 0.3's search_mem copies each record into a buffer it allocates
 * and frees (alloc_mem / free_mem), and with -M (malloc, no mmap) glibc gives a thread arena's freed top back
 * with madvise(MADV_DONTNEED) (malloc/arena.c shrink_heap), whose flush IPIs the sender waits for. Result:
 * records/s over the run, higher is better.
 */
public final class SpinlockWorkload implements Workload {

    static final String TYPE = "spinlock";
    private static final double NANOS_PER_US = 1e3;
    /** Bound of shootdowns per record. */
    static final int MAX_SHOOTDOWNS = 64;

    private final int threadsParam;
    private final DurationDistribution outside;
    private final DurationDistribution inside;
    private final int locks;
    private final long recordsPerThread;
    private final int shootdowns;

    private long[] records = new long[0];
    private long startNanos;
    private int threads;
    private int exited;
    private long lastExitNanos;

    public SpinlockWorkload(int threads, DurationDistribution outside, DurationDistribution inside, int locks,
            long recordsPerThread) {
        this(threads, outside, inside, locks, recordsPerThread, 0);
    }

    public SpinlockWorkload(int threads, DurationDistribution outside, DurationDistribution inside, int locks,
            long recordsPerThread, int shootdowns) {
        if (threads < 0 || locks < 1 || recordsPerThread < 0 || shootdowns < 0 || shootdowns > MAX_SHOOTDOWNS) {
            throw new IllegalArgumentException("invalid spinlock parameters");
        }
        this.threadsParam = threads;
        this.outside = outside;
        this.inside = inside;
        this.locks = locks;
        this.recordsPerThread = recordsPerThread;
        this.shootdowns = shootdowns;
    }

    static SpinlockWorkload fromParams(Params p) {
        double cv = p.getDouble("cv");
        return new SpinlockWorkload(p.getInt("threads"),
                DurationDistribution.lognormal(p.getDouble("outsideUs"), cv),
                DurationDistribution.lognormal(p.getDouble("insideUs"), cv),
                p.getInt("locks"), p.getLong("records"), p.getInt("shootdowns"));
    }

    /** Registry entry: type, description, unit and parameters with defaults, bounds and sources. */
    public static WorkloadDescriptor descriptor() {
        return new WorkloadDescriptor(TYPE,
                "ebizzy-like: threads work outside and inside a shared spinlock; waiters spin on their vCPU",
                "records/s", List.of(
                        ParameterSpec.integer("threads", 0, 0, 4096, "threads",
                                "worker threads; 0 = one per vCPU", "ebizzy -t default: number of online CPUs"),
                        ParameterSpec.number("outsideUs", 50, 0, 1e7, "us",
                                "mean work per record outside the lock", "workload choice, UNVERIFIED"),
                        ParameterSpec.number("insideUs", 5, 0.001, 1e7, "us",
                                "mean work per record while holding the lock (critical section)",
                                "workload choice, UNVERIFIED"),
                        ParameterSpec.number("cv", 0.5, 0, 10, "ratio",
                                "coefficient of variation of both work times (lognormal; 0 = fixed)",
                                "workload choice"),
                        ParameterSpec.integer("locks", 1, 1, 1024, "locks",
                                "number of spinlocks; each record takes one chosen uniformly at random",
                                "ebizzy contends on one mm lock: default 1"),
                        ParameterSpec.integer("records", 0, 0, 1_000_000_000L, "records",
                                "records per thread before it ends; 0 = endless (ebizzy runs for a fixed time)",
                                "ebizzy -S seconds; here the run duration"),
                        ParameterSpec.integer("shootdowns", 0, 0, MAX_SHOOTDOWNS, "shootdowns",
                                "TLB shootdowns per record, after the release: a synchronous flush IPI to every"
                                        + " other busy, running vCPU of the VM, waited for with preemption disabled",
                                "ebizzy -M frees each record's copy and glibc trims the arena with"
                                        + " madvise(MADV_DONTNEED): one per record; 0 = none (before engine 0.5.0)")),
                SpinlockWorkload::fromParams);
    }

    @Override
    public void start(WorkloadEnv env) {
        startNanos = env.now();
        threads = threadsParam == 0 ? env.vcpus() : threadsParam;
        records = new long[threads];
        for (int t = 0; t < threads; t++) {
            env.spawn(new Worker(t, env));
        }
    }

    @Override
    public boolean isFinite() {
        return recordsPerThread > 0;
    }

    @Override
    public boolean isComplete() {
        return isFinite() && threads > 0 && exited == threads;
    }

    /** Records completed by every thread together. */
    public long totalRecords() {
        long sum = 0;
        for (long r : records) {
            sum += r;
        }
        return sum;
    }

    @Override
    public WorkloadReport report(long elapsedNanos) {
        boolean done = isComplete();
        double seconds = (done ? lastExitNanos - startNanos : elapsedNanos) / 1e9;
        long total = totalRecords();
        Map<String, Double> details = new LinkedHashMap<>();
        details.put("records", (double) total);
        details.put("seconds", seconds);
        details.put("threads", (double) threads);
        long min = Long.MAX_VALUE;
        long max = 0;
        for (long r : records) {
            min = Math.min(min, r);
            max = Math.max(max, r);
        }
        details.put("minThreadRecords", threads == 0 ? 0.0 : (double) min);
        details.put("maxThreadRecords", (double) max);
        return new WorkloadReport("throughput", seconds > 0 ? total / seconds : 0, "records/s", true,
                done ? seconds : null, details);
    }

    /** One worker: outside work, acquire, inside work, release, count. */
    private final class Worker implements GuestThread {
        private final int index;
        private final WorkloadEnv env;
        private int step;
        private int lock;
        private int flushesLeft;

        Worker(int index, WorkloadEnv env) {
            this.index = index;
            this.env = env;
        }

        @Override
        public Phase next(long now) {
            while (true) {
                switch (step) {
                    case 0 -> {
                        if (recordsPerThread > 0 && records[index] >= recordsPerThread) {
                            exited++;
                            lastExitNanos = Math.max(lastExitNanos, now);
                            step = 4;
                            return Phase.EXIT;
                        }
                        step = 1;
                        long work = outside.sampleNanos(env.random(), NANOS_PER_US);
                        if (work > 0) {
                            return new Phase.Compute(work, false);
                        }
                    }
                    case 1 -> {
                        step = 2;
                        lock = locks == 1 ? 0 : env.random().nextInt(locks);
                        return new Phase.Acquire(lock);
                    }
                    case 2 -> {
                        step = 3;
                        return new Phase.Compute(inside.sampleNanos(env.random(), NANOS_PER_US), false);
                    }
                    case 3 -> {
                        step = shootdowns > 0 ? 5 : 0;
                        flushesLeft = shootdowns;
                        records[index]++;
                        return new Phase.Release(lock);
                    }
                    case 5 -> {
                        if (--flushesLeft == 0) {
                            step = 0;
                        }
                        return new Phase.FlushTlb();
                    }
                    default -> {
                        return Phase.EXIT;
                    }
                }
            }
        }
    }
}
