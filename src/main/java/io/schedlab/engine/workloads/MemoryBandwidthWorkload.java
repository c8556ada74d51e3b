package io.schedlab.engine.workloads;

import io.schedlab.engine.registry.ParameterSpec;
import io.schedlab.engine.registry.Params;
import io.schedlab.engine.registry.WorkloadDescriptor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code sysbench memory} (sysbench 1.0 src/tests/memory/sb_memory.c): each thread streams over
 * memory in blocks of {@code blockKb} until it has moved {@code totalMb} (or forever), and the result
 * is the throughput in MiB/s. A thread's program is a series of {@link Phase.Compute} phases with
 * {@code memoryStream = true}; each phase moves a whole number of blocks worth about
 * {@code phaseUs} of work at the nominal solo rate {@code streamMBps}. The engine's cost model then
 * slows a phase down by the share of the NUMA node's bandwidth the thread gets, remote access and
 * SMT contention, so throughput = bytes moved / elapsed time.
 */
public final class MemoryBandwidthWorkload implements Workload {

    static final String TYPE = "memory-bandwidth";
    private static final double NANOS_PER_SECOND = 1e9;
    private static final double KIB_PER_MIB = 1024;

    private final int threads;
    private final long blockKib;
    private final long totalKibPerThread;
    private final double streamMiBps;
    private final long blocksPerPhase;
    /** The phase moving a whole phase's blocks (immutable, so one instance serves every thread). */
    private final Phase.Compute fullPhase;

    private long startNanos;
    private long[] kibDone = new long[0];
    private int exited;
    private long lastExitNanos;

    public MemoryBandwidthWorkload(int threads, long blockKib, double totalMiBPerThread, double streamMiBps,
            long phaseMicros) {
        if (threads < 1 || blockKib < 1 || totalMiBPerThread < 0 || !(streamMiBps > 0) || phaseMicros < 1) {
            throw new IllegalArgumentException("invalid memory-bandwidth parameters");
        }
        this.threads = threads;
        this.blockKib = blockKib;
        this.totalKibPerThread = Math.round(totalMiBPerThread * KIB_PER_MIB);
        this.streamMiBps = streamMiBps;
        double kibPerPhase = streamMiBps * KIB_PER_MIB * phaseMicros / 1e6;
        this.blocksPerPhase = Math.max(1, (long) Math.floor(kibPerPhase / blockKib));
        this.fullPhase = new Phase.Compute(workNanosFor(blocksPerPhase * blockKib), true);
    }

    static MemoryBandwidthWorkload fromParams(Params p) {
        return new MemoryBandwidthWorkload(p.getInt("threads"), p.getLong("blockKb"), p.getDouble("totalMb"),
                p.getDouble("streamMBps"), p.getLong("phaseUs"));
    }

    /** Registry entry: type, description, unit and parameters with defaults, bounds and sources. */
    public static WorkloadDescriptor descriptor() {
        return new WorkloadDescriptor(TYPE,
                "sysbench memory: threads stream memory in blocks; throughput bounded by the NUMA node's bandwidth",
                "MB/s", List.of(
                        ParameterSpec.integer("threads", 1, 1, 4096, "threads",
                                "streaming threads (sysbench --threads)", "sysbench 1.0 --threads default 1"),
                        ParameterSpec.integer("blockKb", 1, 1, 1_048_576, "KiB",
                                "block size (sysbench --memory-block-size)",
                                "sysbench 1.0 sb_memory.c --memory-block-size default 1K"),
                        ParameterSpec.number("totalMb", 0, 0, 1e9, "MiB",
                                "amount each thread moves before it ends; 0 = endless (measure over the run)",
                                "sysbench --memory-total-size (there total over threads, default 100G); here per thread"),
                        ParameterSpec.number("streamMBps", 5000, 1, 1e6, "MiB/s",
                                "nominal solo streaming rate of one thread: local memory, idle node, no SMT sibling",
                                "calibration knob, UNVERIFIED: order of one core's STREAM copy rate on a Nehalem-class Xeon"),
                        ParameterSpec.integer("phaseUs", 1000, 1, 1_000_000, "us",
                                "simulation granularity: work per Compute phase at the nominal rate",
                                "engine knob (not a sysbench setting); smaller = more events, same throughput")),
                MemoryBandwidthWorkload::fromParams);
    }

    @Override
    public void start(WorkloadEnv env) {
        startNanos = env.now();
        kibDone = new long[threads];
        for (int t = 0; t < threads; t++) {
            env.spawn(new StreamThread(t));
        }
    }

    /** Work time (ns at the nominal rate) for moving {@code kib} KiB. */
    long workNanosFor(long kib) {
        return Math.max(1L, Math.round(kib / KIB_PER_MIB / streamMiBps * NANOS_PER_SECOND));
    }

    long blocksPerPhase() {
        return blocksPerPhase;
    }

    /** Streaming touches each line once per pass over more than the caches hold: nothing is reused, nothing to lose. */
    @Override
    public long workingSetKb() {
        return 0;
    }

    @Override
    public boolean isFinite() {
        return totalKibPerThread > 0;
    }

    @Override
    public boolean isComplete() {
        return isFinite() && exited == threads;
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
        details.put("threads", (double) threads);
        double min = Double.MAX_VALUE;
        double max = 0;
        for (long k : kibDone) {
            double rate = seconds > 0 ? k / KIB_PER_MIB / seconds : 0;
            min = Math.min(min, rate);
            max = Math.max(max, rate);
        }
        details.put("minThreadMBps", threads == 0 ? 0 : min);
        details.put("maxThreadMBps", max);
        details.put("nominalMBps", streamMiBps * threads);
        double value = seconds > 0 ? moved / seconds : 0;
        return new WorkloadReport("throughput", value, "MB/s", true,
                done ? seconds : null, details);
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
            long kib = blocksPerPhase * blockKib;
            if (totalKibPerThread > 0) {
                long left = totalKibPerThread - kibDone[index];
                if (left <= 0) {
                    exited++;
                    lastExitNanos = Math.max(lastExitNanos, now);
                    return Phase.EXIT;
                }
                kib = Math.min(kib, left);
            }
            pendingKib = kib;
            return kib == blocksPerPhase * blockKib ? fullPhase : new Phase.Compute(workNanosFor(kib), true);
        }
    }
}
