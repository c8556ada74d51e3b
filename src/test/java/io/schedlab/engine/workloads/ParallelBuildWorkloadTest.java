package io.schedlab.engine.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ParallelBuildWorkloadTest {

    private static final long MS = 1_000_000L;

    private static ParallelBuildWorkload build(int jobs, int parallelism, double cv, double ioMs, double tailMs) {
        return new ParallelBuildWorkload(jobs, parallelism, DurationDistribution.lognormal(20, cv),
                DurationDistribution.exponential(ioMs), Math.round(tailMs * MS));
    }

    private static double elapsed(ParallelBuildWorkload w, int cpus) {
        FakeGuest guest = new FakeGuest(cpus, 42);
        guest.run(w, Long.MAX_VALUE);
        assertThat(w.isComplete()).isTrue();
        return w.report(guest.now()).value();
    }

    @Test
    void everyJobRunsExactlyOnceAndTheTailOnce() {
        ParallelBuildWorkload w = build(500, 4, 1.0, 0.5, 300);
        FakeGuest guest = new FakeGuest(4, 7);
        guest.run(w, Long.MAX_VALUE);
        assertThat(w.isComplete()).isTrue();
        assertThat(w.completedJobs()).isEqualTo(500);
        // CPU work handed to the guest equals the bag plus one tail: nothing ran twice, nothing was skipped.
        assertThat(guest.computeNanosExecuted).isEqualTo(w.totalWorkNanos());
        assertThat(w.report(guest.now()).details()).containsEntry("jobsCompleted", 500.0);
    }

    @Test
    void elapsedFallsWithParallelismWhileCpusLast() {
        double j1 = elapsed(build(400, 1, 1.0, 1, 0), 8);
        double j2 = elapsed(build(400, 2, 1.0, 1, 0), 8);
        double j4 = elapsed(build(400, 4, 1.0, 1, 0), 8);
        double j8 = elapsed(build(400, 8, 1.0, 1, 0), 8);
        assertThat(j2).isLessThan(j1 * 0.55);
        assertThat(j4).isLessThan(j2 * 0.55);
        assertThat(j8).isLessThan(j4 * 0.6);
    }

    @Test
    void elapsedStopsFallingWhenCpusRunOut() {
        double j2 = elapsed(build(400, 2, 1.0, 0, 0), 2);
        double j6 = elapsed(build(400, 6, 1.0, 0, 0), 2);
        assertThat(j6).isGreaterThan(j2 * 0.97);
    }

    @Test
    void serialTailRunsAfterTheLastJob() {
        // 4 equal jobs of 20 ms on 4 CPUs, no I/O, then a 1 s link: exactly 1.02 s.
        ParallelBuildWorkload w = build(4, 4, 0.0, 0, 1000);
        assertThat(elapsed(w, 4)).isCloseTo(1.02, within(1e-9));
    }

    @Test
    void sameSeedGivesTheSameSourceTreeWhateverTheParallelism() {
        ParallelBuildWorkload a = build(300, 1, 1.0, 1, 100);
        ParallelBuildWorkload b = build(300, 6, 1.0, 1, 100);
        new FakeGuest(2, 99).run(a, Long.MAX_VALUE);
        new FakeGuest(8, 99).run(b, Long.MAX_VALUE);
        assertThat(a.totalWorkNanos()).isEqualTo(b.totalWorkNanos());
        assertThat(a.totalIoNanos()).isEqualTo(b.totalIoNanos());
    }

    @Test
    void incompleteBuildReportsNoCompletionTime() {
        ParallelBuildWorkload w = build(1000, 1, 1.0, 1, 0);
        FakeGuest guest = new FakeGuest(1, 1);
        guest.run(w, 100 * MS);
        WorkloadReport r = w.report(100 * MS);
        assertThat(w.isComplete()).isFalse();
        assertThat(r.completionSeconds()).isNull();
        assertThat(r.details().get("complete")).isEqualTo(0.0);
        assertThat(r.details().get("jobsCompleted")).isBetween(1.0, 10.0);
    }
}
