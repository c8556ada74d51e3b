package io.schedlab.jobs.support;

import io.schedlab.engine.run.RunCancelledException;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.run.RunLimitExceededException;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.ResultSummary;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.jobs.SimulationRunner;
import java.util.Map;

/**
 * A stand-in engine for job tests: "simulates" {@code durationSeconds} by doing 1 ms steps of wall
 * time (times {@code wallPerSimulated}), 1000 events per step, reporting progress and polling
 * cancel every step like the engine does. Names steer failures: "boom" throws an engine error,
 * "oom" an OutOfMemoryError (as the engine does when the heap cannot hold a run),
 * "event-bound" exceeds the event limit after 100 ms, "trace" writes one trace record per step.
 */
public final class FakeSimulator implements SimulationRunner {

    private static final long EVENTS_PER_STEP = 1000;
    private final double wallPerSimulated;
    private volatile int priorityOfLastRun;

    public FakeSimulator(double wallPerSimulated) {
        this.wallPerSimulated = wallPerSimulated;
    }

    @Override
    public ResultDocument run(ExperimentSpec spec, Limits limits, RunControl control) {
        priorityOfLastRun = Thread.currentThread().getPriority();
        if ("oom".equals(spec.name())) {
            throw new OutOfMemoryError("Java heap space");
        }
        if ("boom".equals(spec.name())) {
            throw new IllegalStateException("boom: policy exploded");
        }
        long simulatedTotal = (long) (spec.durationSeconds() * 1e9);
        long wallTotal = (long) (simulatedTotal * wallPerSimulated);
        long start = System.nanoTime();
        long events = 0;
        long simulated = 0;
        while (simulated < simulatedTotal) {
            sleepMillis(1);
            long wall = System.nanoTime() - start;
            simulated = wallTotal == 0 ? simulatedTotal : Math.min(simulatedTotal, (long) (wall / wallPerSimulated));
            events += EVENTS_PER_STEP;
            if ("event-bound".equals(spec.name()) && wall > 100_000_000L) {
                throw new RunLimitExceededException("event bound reached: " + events + " events > max-events");
            }
            if ("trace".equals(spec.name())) {
                control.traceSink().record(simulated, 0, "switch", "vm1", 0);
            }
            control.progress((double) simulated / simulatedTotal, simulated, events);
            if (control.cancelRequested()) {
                throw new RunCancelledException(simulated);
            }
        }
        return new ResultDocument("fake", new ResultSummary(simulatedTotal, System.nanoTime() - start, events, 0, 0,
                1.0, Map.of()));
    }

    /** The Java priority of the thread that ran the latest simulation. */
    public int priorityOfLastRun() {
        return priorityOfLastRun;
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
