package io.schedlab.engine;

import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.workloads.WorkloadDescriptor;
import io.schedlab.engine.workloads.GuestThread;
import io.schedlab.engine.workloads.Phase;
import io.schedlab.engine.workloads.Workload;
import io.schedlab.engine.workloads.WorkloadEnv;
import io.schedlab.engine.workloads.WorkloadReport;
import java.util.List;
import java.util.Map;

/** Minimal workloads that exercise one engine mechanism each, independent of the product workloads. */
final class TestWorkloads {
    private TestWorkloads() {
    }

    /** {@code stream}: threads each stream {@code workMs} of memory work then exit. */
    static WorkloadDescriptor stream() {
        return new WorkloadDescriptor("stream", "memory streams", "s",
                List.of(ParameterSpec.integer("threads", 1, 1, 64, "", "", ""),
                        ParameterSpec.integer("workMs", 1000, 1, 100_000, "ms", "", "")),
                p -> new Finite(p.getInt("threads"), p.getLong("workMs") * 1_000_000L, true));
    }

    /** {@code locker}: threads loop {@code rounds} times: acquire lock 0, compute {@code holdUs}, release, compute {@code thinkUs}. */
    static WorkloadDescriptor locker() {
        return new WorkloadDescriptor("locker", "spinlock loop", "s",
                List.of(ParameterSpec.integer("threads", 2, 1, 64, "", "", ""),
                        ParameterSpec.integer("rounds", 1000, 1, 10_000_000, "", "", ""),
                        ParameterSpec.integer("holdUs", 50, 1, 1_000_000, "us", "", ""),
                        ParameterSpec.integer("thinkUs", 50, 1, 1_000_000, "us", "", "")),
                Locker::new);
    }

    /** A fixed number of threads that each run a finite program; completion is when the last one exits. */
    abstract static class FiniteThreads implements Workload {
        private final int threads;
        private int exited;
        private long start;
        private long end = -1;

        FiniteThreads(int threads) {
            this.threads = threads;
        }

        /** One thread's program; it calls {@link #exit} instead of returning {@link Phase#EXIT} itself. */
        abstract GuestThread thread();

        /** Marks one thread as exited at {@code now} and returns {@link Phase#EXIT}. */
        final Phase exit(long now) {
            if (++exited == threads) {
                end = now;
            }
            return Phase.EXIT;
        }

        @Override
        public void start(WorkloadEnv env) {
            start = env.now();
            for (int i = 0; i < threads; i++) {
                env.spawn(thread());
            }
        }

        @Override
        public boolean isFinite() {
            return true;
        }

        @Override
        public boolean isComplete() {
            return end >= 0;
        }

        @Override
        public WorkloadReport report(long elapsedNanos) {
            double v = end >= 0 ? (end - start) / 1e9 : elapsedNanos / 1e9;
            return new WorkloadReport("completion", v, "s", false, end >= 0 ? v : null, Map.of());
        }
    }

    /** Finite identical threads doing one Compute each. */
    static final class Finite extends FiniteThreads {
        private final long work;
        private final boolean stream;

        Finite(int threads, long work, boolean stream) {
            super(threads);
            this.work = work;
            this.stream = stream;
        }

        @Override
        GuestThread thread() {
            return new GuestThread() {
                boolean done;

                @Override
                public Phase next(long now) {
                    if (done) {
                        return exit(now);
                    }
                    done = true;
                    return new Phase.Compute(work, stream);
                }
            };
        }
    }

    /** Threads looping acquire / hold / release / think for a number of rounds. */
    static final class Locker extends FiniteThreads {
        private final int rounds;
        private final long hold;
        private final long think;

        Locker(Params p) {
            super(p.getInt("threads"));
            rounds = p.getInt("rounds");
            hold = p.getLong("holdUs") * 1000;
            think = p.getLong("thinkUs") * 1000;
        }

        @Override
        GuestThread thread() {
            return new GuestThread() {
                int step;

                @Override
                public Phase next(long now) {
                    if (step / 4 >= rounds) {
                        return exit(now);
                    }
                    return switch (step++ % 4) {
                        case 0 -> new Phase.Acquire(0);
                        case 1 -> new Phase.Compute(hold, false);
                        case 2 -> new Phase.Release(0);
                        default -> new Phase.Compute(think, false);
                    };
                }
            };
        }
    }
}
