package io.schedlab.engine.workloads;

import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.workloads.WorkloadDescriptor;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code make -j N} / kernbench: a bag of {@code jobs} compile jobs whose CPU times follow a
 * distribution (mean {@code jobMeanMs}, coefficient of variation {@code jobCv}), taken from the
 * shared bag by N = {@code parallelism} guest threads (make's job slots). After each job the thread
 * sleeps a short I/O wait (exponential, mean {@code ioMeanMs}: reading sources, writing objects).
 * When the bag is empty and every job is done, one thread runs the serial tail (the final link,
 * {@code serialTailMs}). The result is the elapsed time in seconds, lower is better. With
 * {@code lockSections} > 0 each job's CPU time is cut into that many + 1 pieces with a guest-kernel
 * critical section of {@code lockUs} between them, under one of {@code locks} spinlocks (chosen by job
 * and section, no random draw): the page-allocator / mm lock contention that makes kernbench sensitive
 * to lock-holder preemption (E4). With {@code memoryShare} > 0 that share of each job's CPU time is a
 * memory stream (its last phase): its rate comes from the engine's memory model (the node's bandwidth
 * shared among streams, NUMA distance, and for striped guest memory every node and the links between them),
 * the rest runs at nominal speed; a kernel compile in tmpfs touches its sources, objects and the compiler's
 * heap in guest memory, which is what Xen 22b984ae9a41 measured moving with memory placement.
 * <p>
 * Job and I/O durations are drawn from the workload's own stream when a job is taken; jobs are taken
 * in index order, so job j always gets the same durations: the same seed gives the same "source
 * tree" whatever the parallelism, and runs that differ only in N or in the scheduler compare the
 * same work. Memory is one bit per job.
 */
public final class ParallelBuildWorkload implements Workload {

    static final String TYPE = "parallel-build";
    static final int MAX_JOBS = 200_000;
    private static final double NANOS_PER_MS = 1e6;

    private final int jobs;
    private final int parallelism;
    private final DurationDistribution jobDistribution;
    private final DurationDistribution ioDistribution;
    private final long serialTailNanos;
    private final int lockSections;
    private final long lockNanos;
    private final int locks;
    private final boolean forkBalance;
    private final double memoryShare;

    /** guestPlacement values: Linux fork balancing (default) or the job slot's last vCPU. */
    static final String FORK_BALANCE = "fork-balance";
    static final String LAST_VCPU = "last-vcpu";

    private WorkloadEnv env;
    private long jobNanosDrawn;
    private long ioNanosDrawn;
    private final BitSet completed = new BitSet();
    private int nextJob;
    private int completedCount;
    private boolean tailStarted;
    private boolean tailDone;
    private int threadsStarted;
    private int threadsExited;
    private long startNanos;
    private long finishNanos;

    public ParallelBuildWorkload(int jobs, int parallelism, DurationDistribution jobDistribution,
            DurationDistribution ioDistribution, long serialTailNanos) {
        this(jobs, parallelism, jobDistribution, ioDistribution, serialTailNanos, 0, 0, 1, true, 0);
    }

    /** As above, with {@code lockSections} critical sections of {@code lockNanos} per job under one of {@code locks} locks. */
    public ParallelBuildWorkload(int jobs, int parallelism, DurationDistribution jobDistribution,
            DurationDistribution ioDistribution, long serialTailNanos, int lockSections, long lockNanos, int locks,
            boolean forkBalance, double memoryShare) {
        if (jobs < 1 || jobs > MAX_JOBS || parallelism < 1 || serialTailNanos < 0 || lockSections < 0
                || lockNanos < 0 || locks < 1 || !(memoryShare >= 0 && memoryShare <= 1)) {
            throw new IllegalArgumentException("invalid parallel-build parameters");
        }
        this.jobs = jobs;
        this.parallelism = parallelism;
        this.jobDistribution = jobDistribution;
        this.ioDistribution = ioDistribution;
        this.serialTailNanos = serialTailNanos;
        this.lockSections = lockSections;
        this.lockNanos = lockNanos;
        this.locks = locks;
        this.forkBalance = forkBalance;
        this.memoryShare = memoryShare;
    }

    static ParallelBuildWorkload fromParams(Params p) {
        var kind = DurationDistribution.Kind.of(p.getString("distribution"));
        ParallelBuildWorkload w = new ParallelBuildWorkload(p.getInt("jobs"), p.getInt("parallelism"),
                new DurationDistribution(kind, p.getDouble("jobMeanMs"), p.getDouble("jobCv")),
                DurationDistribution.exponential(p.getDouble("ioMeanMs")),
                Math.round(p.getDouble("serialTailMs") * NANOS_PER_MS), p.getInt("lockSections"),
                Math.round(p.getDouble("lockUs") * 1e3), p.getInt("locks"),
                FORK_BALANCE.equals(p.getString("guestPlacement")), p.getDouble("memoryShare"));
        w.testAndSet = TEST_AND_SET.equals(p.getString("spinlock"));
        return w;
    }

    /** spinlock values: ticket locks (Linux x86 from 2.6.25) or test-and-set locks (before). */
    static final String TICKET = "ticket";
    static final String TEST_AND_SET = "test-and-set";
    private boolean testAndSet;

    @Override
    public boolean testAndSetSpinlocks() {
        return testAndSet;
    }

    /** Registry entry: type, description, unit and parameters with defaults, bounds and sources. */
    public static WorkloadDescriptor descriptor() {
        return new WorkloadDescriptor(TYPE,
                "make -j N / kernbench: N threads take compile jobs from a shared bag, short I/O waits, serial link",
                "s", List.of(
                        ParameterSpec.integer("jobs", 1000, 1, MAX_JOBS, "jobs",
                                "compile jobs in the bag (translation units)",
                                "order of a trimmed kernel config (kernbench builds a defconfig: ~1-2k objects)"),
                        ParameterSpec.integer("parallelism", 1, 1, 4096, "threads",
                                "job slots: make -j N", "GNU make -j; seed 004 sweeps N = 1, 2, 4, 6, 8"),
                        ParameterSpec.number("jobMeanMs", 72, 0.001, 1e6, "ms",
                                "mean CPU time of one job at nominal speed",
                                "workload choice: 1000 x 72 ms + 6 s link ~ the 80 s make -j1 of seed 004"),
                        ParameterSpec.number("jobCv", 1.0, 0, 10, "ratio",
                                "coefficient of variation of job CPU times (0 = all equal)",
                                "workload choice: compile times are right-skewed, UNVERIFIED"),
                        ParameterSpec.choice("distribution", "lognormal", DurationDistribution.NAMES,
                                "family of the job-time distribution", "workload choice"),
                        ParameterSpec.number("ioMeanMs", 1.0, 0, 1e5, "ms",
                                "mean I/O wait after each job (exponential; 0 = none)",
                                "workload choice: sources and objects mostly in page cache, UNVERIFIED"),
                        ParameterSpec.number("serialTailMs", 6000, 0, 1e7, "ms",
                                "serial tail after the last job (final link of vmlinux); 0 = none",
                                "workload choice: kernel link step takes seconds, UNVERIFIED"),
                        ParameterSpec.integer("lockSections", 0, 0, 10_000, "sections",
                                "guest-kernel spinlock critical sections per job (0 = none)",
                                "workload choice (kernbench's page-allocator/mm lock traffic), UNVERIFIED"),
                        ParameterSpec.number("lockUs", 5, 0, 1e6, "us",
                                "length of one critical section", "workload choice, UNVERIFIED"),
                        ParameterSpec.integer("locks", 1, 1, 1024, "locks",
                                "spinlocks the sections use (section i of job j takes lock (i + j) mod locks)",
                                "workload choice"),
                        ParameterSpec.choice("spinlock", TICKET, List.of(TICKET, TEST_AND_SET),
                                "the guest kernel's spinlocks: ticket = FIFO, a freed lock goes to the longest waiter"
                                        + " even when its vCPU is preempted; test-and-set = a freed lock goes to a"
                                        + " spinner that is running, or stays free for the first to run",
                                "Linux x86 ticket spinlocks from 2.6.25 (commit 314cdbefd1fd, \"x86: FIFO ticket"
                                        + " spinlocks\"); before, __raw_spin_lock's lock; decb test-and-set loop"),
                        ParameterSpec.choice("guestPlacement", FORK_BALANCE, List.of(FORK_BALANCE, LAST_VCPU),
                                "where the guest starts a job after the slot's I/O wait: fork-balance = make forks"
                                        + " a new process, placed on the first idle vCPU after the slot's last one;"
                                        + " last-vcpu = the slot's last vCPU if idle, else the lowest-numbered idle",
                                "Linux kernel/sched/fair.c v4.1 select_task_rq_fair (SD_BALANCE_FORK),"
                                        + " find_idlest_group / find_idlest_cpu"),
                        ParameterSpec.number("memoryShare", 0, 0, 1, "fraction",
                                "share of each job's CPU time that streams from guest memory (its NUMA node, or every"
                                        + " node when the VM's memory is striped); 0 = all at nominal speed",
                                "workload choice, UNVERIFIED: Xen 22b984ae9a41 shows a tmpfs kernel compile slowing"
                                        + " with striped memory, without giving its memory-bound share")),
                ParallelBuildWorkload::fromParams);
    }

    @Override
    public void start(WorkloadEnv env) {
        this.env = env;
        startNanos = env.now();
        int threads = Math.min(parallelism, jobs);
        for (int t = 0; t < threads; t++) {
            threadsStarted++;
            env.spawn(new JobSlot());
        }
    }

    @Override
    public boolean isFinite() {
        return true;
    }

    @Override
    public boolean isComplete() {
        return threadsStarted > 0 && threadsExited == threadsStarted && completedCount == jobs
                && (serialTailNanos == 0 || tailDone);
    }

    /** Jobs that have finished (each exactly once). */
    public int completedJobs() {
        return completedCount;
    }

    /** CPU time of the jobs taken so far plus the tail; once every job is taken, the make -j1 time without I/O. */
    public long totalWorkNanos() {
        return jobNanosDrawn + serialTailNanos;
    }

    /** I/O waits of the jobs taken so far. */
    long totalIoNanos() {
        return ioNanosDrawn;
    }

    @Override
    public WorkloadReport report(long elapsedNanos) {
        boolean done = isComplete();
        double seconds = (done ? finishNanos - startNanos : elapsedNanos) / 1e9;
        Map<String, Double> details = new LinkedHashMap<>();
        details.put("jobs", (double) jobs);
        details.put("jobsCompleted", (double) completedCount);
        details.put("parallelism", (double) parallelism);
        details.put("complete", done ? 1.0 : 0.0);
        details.put("serialWorkSeconds", totalWorkNanos() / 1e9);
        details.put("ioSeconds", totalIoNanos() / 1e9);
        return new WorkloadReport("elapsed", seconds, "s", false, done ? seconds : null, details);
    }

    /** One make job slot: take a job, compile, wait for I/O, repeat; the last one links. */
    private final class JobSlot implements GuestThread {
        private static final int NONE = -1;
        private static final int TAIL = -2;
        private int running = NONE;
        private long ioAfter;
        /** The rest of the running job's phases (its pieces and critical sections). */
        private final java.util.ArrayDeque<Phase> rest = new java.util.ArrayDeque<>();

        /** Each wake-up after a job's I/O is make forking the next compiler: a new process, placed by fork balancing. */
        @Override
        public boolean forksOnWake() {
            return forkBalance;
        }

        @Override
        public Phase next(long now) {
            if (!rest.isEmpty()) {
                return rest.poll();
            }
            if (running >= 0) {
                finishJob(running);
                running = NONE;
                if (ioAfter > 0) {
                    return new Phase.Sleep(ioAfter);
                }
            } else if (running == TAIL) {
                tailDone = true;
                return exit(now);
            }
            if (nextJob < jobs) {
                running = nextJob++;
                // Drawn in job order (job, then its I/O), whichever slot takes the job.
                long work = jobDistribution.sampleNanos(env.random(), NANOS_PER_MS);
                ioAfter = ioDistribution.sampleNanos(env.random(), NANOS_PER_MS);
                jobNanosDrawn += work;
                ioNanosDrawn += ioAfter;
                long streamed = memoryShare > 0 ? Math.round(work * memoryShare) : 0;
                if (streamed > 0) {
                    work = Math.max(1, work - streamed);
                }
                if (lockSections == 0) {
                    if (streamed > 0) {
                        rest.add(new Phase.Compute(streamed, true));
                    }
                    return new Phase.Compute(Math.max(1, work), false);
                }
                jobNanosDrawn += lockSections * Math.max(1, lockNanos);
                long piece = Math.max(1, work / (lockSections + 1));
                for (int i = 0; i < lockSections; i++) {
                    int lock = (running + i) % locks;
                    rest.add(new Phase.Compute(piece, false));
                    rest.add(new Phase.Acquire(lock));
                    rest.add(new Phase.Compute(Math.max(1, lockNanos), false));
                    rest.add(new Phase.Release(lock));
                }
                rest.add(new Phase.Compute(Math.max(1, work - piece * lockSections), false));
                if (streamed > 0) {
                    rest.add(new Phase.Compute(streamed, true));
                }
                return rest.poll();
            }
            if (completedCount == jobs && !tailStarted && serialTailNanos > 0) {
                tailStarted = true;
                running = TAIL;
                return new Phase.Compute(serialTailNanos, false);
            }
            return exit(now);
        }

        private Phase exit(long now) {
            threadsExited++;
            finishNanos = Math.max(finishNanos, now);
            return Phase.EXIT;
        }
    }

    private void finishJob(int job) {
        if (completed.get(job)) {
            throw new IllegalStateException("job " + job + " completed twice");
        }
        completed.set(job);
        completedCount++;
    }
}
