package io.schedlab.engine.policies.linux;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.Validation;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.HostThreadSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A lock-heavy guest at 1x under KVM's base pause-loop handler, with unaligned host I/O threads (E4's ebizzy 1x
 * cell at half its host): the records/s it reports must not depend on how long it runs. Before the balancer
 * weighed tasks by their PELT averages, each I/O burst made its CPU look twice as busy, vCPUs were moved onto
 * CPUs that already ran one, the I/O threads gathered on the vacated CPUs and a vCPU that landed among them
 * waited tens of ms: records/s fell by a quarter from 0.5 s to 1.5 s and differed by a fifth between seeds.
 */
class SteadyStateTest {
    private static final Engine ENGINE = Engine.standard();
    private static final double SECONDS = 0.5;
    private static final List<Long> SEEDS = List.of(1L, 2L);
    /** Largest relative change allowed between the run and the run three times as long (what is left is start-up). */
    private static final double LENGTH_TOLERANCE = 0.10;
    /** Largest coefficient of variation over the seeds for a cell to count as converged. */
    private static final double SEED_CV_LIMIT = 0.05;

    private static ExperimentSpec ebizzyOneX(long seed, double seconds) {
        HostSpec host = new HostSpec(2, 4, 2, null, null, null, null);
        WorkloadSpec io = new WorkloadSpec("idle", Map.of("threads", 8, "wakeIntervalMs", 2, "burstUs", 50,
                "jitter", 0.5));
        SchedulerSpec cfs = new SchedulerSpec("cfs", Map.of("pleHandler", "base", "pleWindowGrow", 0,
                "yieldToKernelMode", false), "kvm", List.of(new HostThreadSpec("host-io", 8, 0, io)));
        VmSpec guest = new VmSpec("guest", 16, null, null, null, null, null, 8192, 0, null, null,
                new WorkloadSpec("spinlock", Map.of("threads", 0)));
        return new ExperimentSpec("ebizzy 1x", null, seed, seconds, ExperimentSpec.StopCondition.DURATION, host, cfs,
                null, List.of(guest), null, null);
    }

    private static double[] recordsPerSecond(double seconds) {
        double[] out = new double[SEEDS.size()];
        for (int i = 0; i < out.length; i++) {
            Validation v = ENGINE.validate(ebizzyOneX(SEEDS.get(i), seconds), Limits.defaults());
            assertThat(v.violations()).as("violations").isEmpty();
            ResultDocument doc = ENGINE.run(v.normalized(), Limits.defaults(), RunControl.NONE);
            out[i] = LinuxRuns.vm(doc, "guest").headline().value();
        }
        return out;
    }

    private static double mean(double[] xs) {
        double s = 0;
        for (double x : xs) {
            s += x;
        }
        return s / xs.length;
    }

    private static double cv(double[] xs) {
        double m = mean(xs);
        double ss = 0;
        for (double x : xs) {
            ss += (x - m) * (x - m);
        }
        return Math.sqrt(ss / (xs.length - 1)) / m;
    }

    @Test
    void recordsPerSecondAtThreeTimesTheLengthAgreeWithTheRunAndAcrossSeeds() {
        double[] shortRuns = recordsPerSecond(SECONDS);
        double[] longRuns = recordsPerSecond(3 * SECONDS);
        String runs = "records/s at " + SECONDS + " s " + Arrays.toString(shortRuns) + ", at " + 3 * SECONDS + " s "
                + Arrays.toString(longRuns);
        assertThat(mean(shortRuns)).as(runs).isPositive();
        for (int i = 0; i < shortRuns.length; i++) {
            // the same seed: the long run continues the short one, so this compares its later rate with its first
            assertThat(Math.abs(longRuns[i] - shortRuns[i]) / longRuns[i]).as("seed %s: %s", SEEDS.get(i), runs)
                    .isLessThanOrEqualTo(LENGTH_TOLERANCE);
        }
        assertThat(Math.abs(mean(longRuns) - mean(shortRuns)) / mean(longRuns)).as(runs)
                .isLessThanOrEqualTo(LENGTH_TOLERANCE);
        assertThat(cv(shortRuns)).as("seeds' coefficient of variation: %s", runs).isLessThanOrEqualTo(SEED_CV_LIMIT);
        assertThat(cv(longRuns)).as("seeds' coefficient of variation: %s", runs)
                .isLessThanOrEqualTo(SEED_CV_LIMIT);
    }
}
