package io.schedlab.engine.workloads;

import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.workloads.WorkloadDescriptor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code cpu-loop}: busy loops (seed 001's test.sh). Each of {@code threads} threads computes
 * {@code workSeconds} of CPU work at nominal speed; the report is the completion time in seconds
 * since the VM started. With {@code workSeconds} = 0 the loops never end and the report is the
 * work rate in work-seconds per second (1.0 = one full-speed pCPU).
 */
public final class CpuLoopWorkload implements Workload {
    public static final String TYPE = "cpu-loop";
    /** Work chunk of an endless loop: the rate is measured at this granularity. */
    static final long ENDLESS_CHUNK_NANOS = 10_000_000L;

    private final int threads;
    private final long workNanos;
    private long startedAt;
    private long finishedAt = -1;
    private int exited;
    private long chunksDone;

    public CpuLoopWorkload(Params p) {
        this.threads = p.getInt("threads");
        this.workNanos = Math.round(p.getDouble("workSeconds") * 1e9);
    }

    /** Registry entry. */
    public static WorkloadDescriptor descriptor() {
        return new WorkloadDescriptor(TYPE, "CPU busy loops: fixed work per thread (completion s) or endless"
                + " (work-seconds/s)", "s",
                List.of(ParameterSpec.integer("threads", 1, 1, 4096, "threads",
                                "Loop threads (1 = seed 001's single shell loop per VM).", "seed 001: one test.sh"),
                        ParameterSpec.number("workSeconds", 10, 0, 86_400, "s",
                                "CPU work per thread at full speed; 0 = endless.", "experiment choice")),
                CpuLoopWorkload::new);
    }

    @Override
    public void start(WorkloadEnv env) {
        startedAt = env.now();
        for (int i = 0; i < threads; i++) {
            env.spawn(workNanos > 0 ? finiteLoop() : endlessLoop());
        }
    }

    private GuestThread finiteLoop() {
        return new GuestThread() {
            private boolean started;

            @Override
            public Phase next(long now) {
                if (!started) {
                    started = true;
                    return new Phase.Compute(workNanos, false);
                }
                exited++;
                if (exited == threads) {
                    finishedAt = now;
                }
                return Phase.EXIT;
            }
        };
    }

    private GuestThread endlessLoop() {
        Phase.Compute chunk = new Phase.Compute(ENDLESS_CHUNK_NANOS, false);
        return new GuestThread() {
            private boolean started;

            @Override
            public Phase next(long now) {
                if (started) {
                    chunksDone++;
                }
                started = true;
                return chunk;
            }
        };
    }

    @Override
    public boolean isFinite() {
        return workNanos > 0;
    }

    @Override
    public boolean isComplete() {
        return finishedAt >= 0;
    }

    @Override
    public WorkloadReport report(long elapsedNanos) {
        Map<String, Double> details = new LinkedHashMap<>();
        double elapsed = elapsedNanos / 1e9;
        if (workNanos == 0) {
            double workSeconds = chunksDone * (ENDLESS_CHUNK_NANOS / 1e9);
            details.put("workSeconds", workSeconds);
            return new WorkloadReport("work rate", elapsed > 0 ? workSeconds / elapsed : 0, "work-seconds/s", true,
                    null, details);
        }
        details.put("threadsDone", (double) exited);
        details.put("threads", (double) threads);
        if (finishedAt >= 0) {
            double completion = (finishedAt - startedAt) / 1e9;
            return new WorkloadReport("completion time", completion, "s", false, completion, details);
        }
        return new WorkloadReport("completion time (not finished)", elapsed, "s", false, null, details);
    }
}
