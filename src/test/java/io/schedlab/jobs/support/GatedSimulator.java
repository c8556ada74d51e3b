package io.schedlab.jobs.support;

import io.schedlab.engine.run.RunCancelledException;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.ResultSummary;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.jobs.SimulationRunner;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A stand-in engine whose runs last until the test lets them end: a run of the experiment named N
 * is "running" (see {@link #running()}) until {@link #release(String) release(N)} or a cancel.
 */
public final class GatedSimulator implements SimulationRunner {

    private final Set<String> running = ConcurrentHashMap.newKeySet();
    private final Set<String> released = ConcurrentHashMap.newKeySet();

    @Override
    public ResultDocument run(ExperimentSpec spec, Limits limits, RunControl control) {
        running.add(spec.name());
        try {
            long start = System.nanoTime();
            while (!released.contains(spec.name())) {
                if (control.cancelRequested()) {
                    throw new RunCancelledException(0);
                }
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
            }
            return new ResultDocument("gated", new ResultSummary(1, System.nanoTime() - start, 1, 0, 0, 1.0, Map.of()));
        } finally {
            running.remove(spec.name());
        }
    }

    /** Lets the run of the experiment named {@code name} end (now, or as soon as it starts). */
    public void release(String name) {
        released.add(name);
    }

    /** Names of the experiments being simulated now. */
    public Set<String> running() {
        return Set.copyOf(running);
    }
}
