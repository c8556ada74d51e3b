package io.schedlab.jobs.support;

import io.schedlab.experiments.Experiment;
import io.schedlab.experiments.ExperimentService;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.UUID;
import java.util.function.Predicate;

/** Polls an experiment through the service until a condition holds, and reads test resources: shared by the jobs end-to-end tests. */
public final class AwaitExperiment {

    private AwaitExperiment() {
    }

    /** The experiment once {@code condition} holds; fails with its last state after {@code timeout}. */
    public static Experiment until(ExperimentService experiments, UUID id, Predicate<Experiment> condition, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Experiment experiment = experiments.get(id);
        while (!condition.test(experiment)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not reached within " + timeout + "; experiment is " + experiment);
            }
            Thread.sleep(10);
            experiment = experiments.get(id);
        }
        return experiment;
    }

    /** The bytes of a classpath resource (absolute name), e.g. {@code /experiments/seed001-static.json}. */
    public static byte[] resource(String name) {
        try (InputStream in = AwaitExperiment.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
