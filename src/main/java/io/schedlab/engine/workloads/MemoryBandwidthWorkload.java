package io.schedlab.engine.workloads;

import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.workloads.WorkloadDescriptor;
import io.schedlab.engine.workloads.MemoryHierarchy.Level;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code sysbench memory} (sysbench 1.0 {@code src/tests/memory/sb_memory.c}). Each event moves one
 * block: {@code memory_next_event} takes the global mutex to count the block against the total,
 * then {@code memory_execute_event} writes (or reads) every int of the block buffer, in order
 * ({@code seq}) or at random indices drawn per int ({@code rnd}). The buffer is ONE block: shared by
 * all threads ({@code --memory-scope=global}, the default) or one per thread ({@code local}). With the
 * defaults (1 KiB block, global, write, seq) the buffer lives in L1 and the test measures the event
 * loop, not memory: a working set that fits a cache does not stream from a NUMA node.
 *
 * <p>Model: a block costs {@code eventNs} (event loop, mutex, timers) plus its transfer at the rate of
 * the cache level its data fits ({@link MemoryHierarchy}: the block against L1 and L2 per core, the
 * blocks of every thread on the socket against the LLC). Only data that fits no cache streams from
 * DRAM ({@link Phase.Compute} with {@code memoryStream}: the engine shares the node's bandwidth and
 * applies NUMA distance) at {@code streamMBps} per thread; {@code mode = stream} always streams
 * (STREAM-like arrays, larger than the caches by construction) and has no per-event cost. Random access costs
 * {@code randomElementNs} per int (sb_rand_uniform_double), plus a DRAM miss per int when the block
 * is in DRAM. Not modelled: contention on the global mutex between threads running at once.
 * Throughput = MiB moved / elapsed time, as sysbench reports MiB/sec.
 */
public final class MemoryBandwidthWorkload implements Workload {

    static final String TYPE = "memory-bandwidth";
    private static final double NANOS_PER_SECOND = 1e9;
    private static final double KIB_PER_MIB = 1024;
    private static final int INT_BYTES = 4;
    private static final int LINE_BYTES = 64;

    /** sysbench --memory-scope / --memory-oper / --memory-access-mode, and the STREAM-like mode. */
    static final List<String> SCOPES = List.of("global", "local");
    static final List<String> OPERATIONS = List.of("write", "read", "none");
    static final List<String> ACCESS_MODES = List.of("seq", "rnd");
    static final List<String> MODES = List.of("sysbench", "stream");

    /** The parameters, as sysbench names them (plus the model's). */
    record Settings(int threads, long blockKib, double totalMiBPerThread, String scope, String oper,
            String accessMode, String mode, double streamMiBps, long eventNanos, long randomElementNanos,
            long phaseMicros) {

        Settings {
            if (threads < 1 || blockKib < 1 || totalMiBPerThread < 0 || !(streamMiBps > 0) || phaseMicros < 1
                    || eventNanos < 0 || randomElementNanos < 0 || !SCOPES.contains(scope)
                    || !OPERATIONS.contains(oper) || !ACCESS_MODES.contains(accessMode) || !MODES.contains(mode)) {
                throw new IllegalArgumentException("invalid memory-bandwidth parameters");
            }
        }

        /** sysbench's defaults with {@code threads}, {@code blockKib} and {@code totalMiBPerThread}. */
        static Settings sysbench(int threads, long blockKib, double totalMiBPerThread) {
            return new Settings(threads, blockKib, totalMiBPerThread, "global", "write", "seq", "sysbench", 5000,
                    DEFAULT_EVENT_NANOS, DEFAULT_RANDOM_ELEMENT_NANOS, 1000);
        }

        /** STREAM-like: every block streams from DRAM at {@code streamMiBps}, no event cost. */
        static Settings stream(int threads, long blockKib, double totalMiBPerThread, double streamMiBps) {
            return new Settings(threads, blockKib, totalMiBPerThread, "global", "write", "seq", "stream", streamMiBps,
                    DEFAULT_EVENT_NANOS, DEFAULT_RANDOM_ELEMENT_NANOS, 1000);
        }
    }

    static final long DEFAULT_EVENT_NANOS = 100;
    static final long DEFAULT_RANDOM_ELEMENT_NANOS = 10;

    private final Settings s;
    private final long totalKibPerThread;

    // decided at start, from the host's caches
    private Level level = Level.DRAM;
    /** Work time of one block at the nominal rate, unrounded (phases round their total once). */
    private double blockNanos;
    private long blocksPerPhase;
    private Phase.Compute fullPhase;
    private long workingSetKb;

    private long startNanos;
    private long[] kibDone = new long[0];
    private int exited;
    private long lastExitNanos;

    MemoryBandwidthWorkload(Settings settings) {
        this.s = settings;
        this.totalKibPerThread = Math.round(settings.totalMiBPerThread() * KIB_PER_MIB);
    }

    static MemoryBandwidthWorkload fromParams(Params p) {
        return new MemoryBandwidthWorkload(new Settings(p.getInt("threads"), p.getLong("blockKb"), p.getDouble("totalMb"),
                p.getString("scope"), p.getString("oper"), p.getString("accessMode"), p.getString("mode"),
                p.getDouble("streamMBps"), p.getLong("eventNs"), p.getLong("randomElementNs"), p.getLong("phaseUs")));
    }

    /** Registry entry: type, description, unit and parameters with defaults, bounds and sources. */
    public static WorkloadDescriptor descriptor() {
        String src = "sysbench 1.0 src/tests/memory/sb_memory.c memory_args";
        return new WorkloadDescriptor(TYPE,
                "sysbench memory: threads move a block buffer per event; the block's cache level (L1/L2/LLC) sets"
                        + " the rate, only data beyond the caches streams from the NUMA node",
                "MB/s", List.of(
                        ParameterSpec.integer("threads", 1, 1, 4096, "threads",
                                "worker threads (sysbench --threads)", "sysbench 1.0 --threads default 1"),
                        ParameterSpec.integer("blockKb", 1, 1, 1_048_576, "KiB",
                                "block size = the buffer each event moves (--memory-block-size)",
                                src + ": memory-block-size default 1K"),
                        ParameterSpec.number("totalMb", 0, 0, 1e9, "MiB",
                                "amount each thread moves before it ends; 0 = endless (measure over the run)",
                                src + ": memory-total-size default 100G, over all threads (here per thread)"),
                        ParameterSpec.choice("scope", "global", SCOPES,
                                "global: one block buffer shared by all threads; local: one per thread (--memory-scope)",
                                src + ": memory-scope default global"),
                        ParameterSpec.choice("oper", "write", OPERATIONS,
                                "write or read every int of the block, or none (loop only) (--memory-oper)",
                                src + ": memory-oper default write"),
                        ParameterSpec.choice("accessMode", "seq", ACCESS_MODES,
                                "seq: ints in order; rnd: a random index per int (--memory-access-mode)",
                                src + ": memory-access-mode default seq"),
                        ParameterSpec.choice("mode", "sysbench", MODES,
                                "sysbench: rate by the block's cache level; stream: always stream from DRAM"
                                        + " (STREAM-like arrays larger than the caches)",
                                "model switch; STREAM (McCalpin) sizes each array beyond the caches"),
                        ParameterSpec.number("streamMBps", 5000, 1, 1e6, "MiB/s",
                                "one thread's DRAM streaming rate: local memory, idle node, no SMT sibling",
                                "calibration knob, UNVERIFIED: order of one core's STREAM copy rate on a Nehalem-class Xeon"),
                        ParameterSpec.integer("eventNs", DEFAULT_EVENT_NANOS, 0, 1_000_000, "ns",
                                "cost of one event besides the transfer: global mutex in memory_next_event, event"
                                        + " loop and timers",
                                "calibration knob, UNVERIFIED (an uncontended mutex pair and two clock reads)"),
                        ParameterSpec.integer("randomElementNs", DEFAULT_RANDOM_ELEMENT_NANOS, 0, 1_000_000, "ns",
                                "cost of drawing one random index (accessMode rnd: sb_rand_uniform_double per int)",
                                "calibration knob, UNVERIFIED"),
                        ParameterSpec.integer("phaseUs", 1000, 1, 1_000_000, "us",
                                "simulation granularity: work per Compute phase at the nominal rate",
                                "engine knob (not a sysbench setting); smaller = more events, same throughput")),
                MemoryBandwidthWorkload::fromParams);
    }

    @Override
    public void start(WorkloadEnv env) {
        decide(env.memory());
        startNanos = env.now();
        kibDone = new long[s.threads()];
        for (int t = 0; t < s.threads(); t++) {
            env.spawn(new StreamThread(t));
        }
    }

    /** Where the block buffer lives and what one block costs there. */
    void decide(MemoryHierarchy memory) {
        long socketKb = "local".equals(s.scope()) ? s.blockKib() * s.threads() : s.blockKib();
        if ("stream".equals(s.mode())) {
            level = Level.DRAM;
        } else if ("none".equals(s.oper())) {
            level = Level.L1; // the loop touches no memory
        } else {
            level = memory.levelOf(s.blockKib(), socketKb);
        }
        double bytes = s.blockKib() * 1024.0;
        double transferNanos;
        if ("rnd".equals(s.accessMode())) {
            double perInt = s.randomElementNanos()
                    + (level == Level.DRAM ? LINE_BYTES / mibPerNano(memory.dramMissMBps()) : 0);
            transferNanos = bytes / INT_BYTES * perInt;
        } else {
            double rate = level == Level.DRAM ? s.streamMiBps() : memory.rateMBps(level);
            transferNanos = bytes / mibPerNano(rate);
        }
        // STREAM-like kernels have no per-event loop: only sysbench's events pay eventNs
        double eventNanos = "stream".equals(s.mode()) ? 0 : s.eventNanos();
        blockNanos = Math.max(1e-3, eventNanos + transferNanos);
        blocksPerPhase = Math.max(1, (long) Math.floor(s.phaseMicros() * 1000 / blockNanos));
        fullPhase = new Phase.Compute(phaseNanos(blocksPerPhase), streamsFromNode());
        // Streaming passes over more than the caches hold reuse nothing; a cached block is what a vCPU keeps hot.
        workingSetKb = level == Level.DRAM ? 0 : s.blockKib();
    }

    /** Work time of {@code blocks} blocks, at least 1 ns. */
    private long phaseNanos(long blocks) {
        return Math.max(1, Math.round(blocks * blockNanos));
    }

    private static double mibPerNano(double mibPerSecond) {
        return mibPerSecond * 1024 * 1024 / NANOS_PER_SECOND;
    }

    /** Sequential DRAM traffic is bandwidth-bound (the node's share applies); random DRAM misses are latency-bound. */
    private boolean streamsFromNode() {
        return level == Level.DRAM && "seq".equals(s.accessMode());
    }

    /** The cache level of the block buffer (after start). */
    Level level() {
        return level;
    }

    long blocksPerPhase() {
        return blocksPerPhase;
    }

    /** Work time of one block at the nominal rate (after start). */
    double blockNanos() {
        return blockNanos;
    }

    @Override
    public long workingSetKb() {
        return workingSetKb;
    }

    @Override
    public boolean isFinite() {
        return totalKibPerThread > 0;
    }

    @Override
    public boolean isComplete() {
        return isFinite() && exited == s.threads();
    }

    /** Total MiB moved so far (completed phases only). */
    public double movedMiB() {
        long sum = 0;
        for (long k : kibDone) {
            sum += k;
        }
        return sum / KIB_PER_MIB;
    }

    @Override
    public WorkloadReport report(long elapsedNanos) {
        boolean done = isComplete();
        double seconds = (done ? lastExitNanos - startNanos : elapsedNanos) / NANOS_PER_SECOND;
        double moved = movedMiB();
        Map<String, Double> details = new LinkedHashMap<>();
        details.put("totalMiB", moved);
        details.put("seconds", seconds);
        details.put("threads", (double) s.threads());
        double min = Double.MAX_VALUE;
        double max = 0;
        for (long k : kibDone) {
            double rate = seconds > 0 ? k / KIB_PER_MIB / seconds : 0;
            min = Math.min(min, rate);
            max = Math.max(max, rate);
        }
        details.put("minThreadMBps", s.threads() == 0 ? 0 : min);
        details.put("maxThreadMBps", max);
        details.put("nominalMBps", blockNanos == 0 ? 0 : s.blockKib() / KIB_PER_MIB / (blockNanos / NANOS_PER_SECOND)
                * s.threads());
        details.put("cacheLevel", (double) level.ordinal());
        double value = seconds > 0 ? moved / seconds : 0;
        return new WorkloadReport("throughput", value, "MB/s", true, done ? seconds : null, details);
    }

    /** One sysbench thread: move blocks phase by phase until its total is reached. */
    private final class StreamThread implements GuestThread {
        private final int index;
        private long pendingKib;

        StreamThread(int index) {
            this.index = index;
        }

        @Override
        public Phase next(long now) {
            kibDone[index] += pendingKib;
            pendingKib = 0;
            long blocks = blocksPerPhase;
            if (totalKibPerThread > 0) {
                long left = totalKibPerThread - kibDone[index];
                if (left <= 0) {
                    exited++;
                    lastExitNanos = Math.max(lastExitNanos, now);
                    return Phase.EXIT;
                }
                blocks = Math.min(blocks, (left + s.blockKib() - 1) / s.blockKib());
            }
            long kib = Math.min(blocks * s.blockKib(), totalKibPerThread > 0 ? totalKibPerThread - kibDone[index]
                    : Long.MAX_VALUE);
            pendingKib = kib;
            return blocks == blocksPerPhase ? fullPhase : new Phase.Compute(phaseNanos(blocks), streamsFromNode());
        }
    }
}
