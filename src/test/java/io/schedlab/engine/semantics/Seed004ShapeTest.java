package io.schedlab.engine.semantics;

import static io.schedlab.engine.semantics.SemanticsSpecs.host;
import static io.schedlab.engine.semantics.SemanticsSpecs.run;
import static io.schedlab.engine.semantics.SemanticsSpecs.sched;
import static io.schedlab.engine.semantics.SemanticsSpecs.spec;
import static io.schedlab.engine.semantics.SemanticsSpecs.vm;
import static io.schedlab.engine.semantics.SemanticsSpecs.vmResult;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.schedlab.engine.Seconds;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec.StopCondition;
import io.schedlab.engine.spec.SchedulerSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Seed 004 (E5) shape: a 4-vCPU guest running {@code make -j N} (parallel-build workload with its
 * defaults) on a 1 socket x 4 cores x 2 threads host, under credit2 as in Xen 4.6 with one run
 * queue per socket or per core, and under credit. The mechanism in the model: with one run queue
 * for the socket, 4.6's run-queue tickle places waking vCPUs from the first pCPU of the queue and
 * then on any idle pCPU (no fully-idle-core preference before 4.7), so busy vCPUs share cores as
 * SMT siblings (cost model smtFactor); per-core queues spread them by load. Published seconds are
 * not expected; the ordering and trend are.
 */
class Seed004ShapeTest {
    private static final int[] N = {1, 2, 4, 6, 8};
    private static double[] perCore;
    private static double[] perSocket;
    private static double[] credit;

    @BeforeAll
    static void sweep() {
        perCore = sweep(sched("credit2", Map.of("xenVersion", "4.6", "runqueue", "core")));
        perSocket = sweep(sched("credit2", Map.of("xenVersion", "4.6", "runqueue", "socket")));
        credit = sweep(sched("credit", null));
    }

    private static double[] sweep(SchedulerSpec s) {
        double[] out = new double[N.length];
        for (int i = 0; i < N.length; i++) {
            ResultDocument d = run(spec(host(1, 4, 2), s, 1000, StopCondition.ALL_COMPLETE,
                    List.of(vm("guest", 4, null, null, "parallel-build", Map.of("parallelism", N[i]))), List.of()));
            out[i] = Seconds.of(vmResult(d, "guest").completionNanos());
        }
        return out;
    }

    @Test
    void perSocketIsSlowerThanPerCoreOnceTwoJobsRun() {
        for (int i = 1; i < N.length; i++) {
            // the vCPUs start where Xen 4.6 creates them (CPUs 7, 0, 1, 2): two on core 0's siblings, so the
            // penalty is E5's (+8% at -j 2, +18% from -j 4); round-robin's 0..3 paired all four (+19%, +48%)
            assertThat(perSocket[i]).as("make -j %d", N[i]).isGreaterThan(perCore[i] * 1.05);
        }
        // With one job at a time a single vCPU is busy: no SMT sharing to lose, so the model gives
        // per-socket = per-core here (seed 004 measured 100 vs 82 s: not reproduced, see report).
        assertThat(perSocket[0]).isCloseTo(perCore[0], within(perCore[0] * 0.03));
    }

    @Test
    void timesFallWithNUntilTheVcpusRunOut() {
        for (double[] times : List.of(perCore, perSocket, credit)) {
            assertThat(times[1]).isLessThan(times[0] * 0.9);
            assertThat(times[2]).isLessThanOrEqualTo(times[1] * 1.0);
            // 4 vCPUs: beyond -j 4 there is nothing more to gain
            assertThat(times[3]).isGreaterThan(times[2] * 0.95);
            assertThat(times[4]).isGreaterThan(times[2] * 0.95);
        }
        assertThat(perCore[2]).isLessThan(perCore[1] * 0.8);
        assertThat(credit[2]).isLessThan(credit[1] * 0.8);
    }

    @Test
    void creditIsCloseToPerCoreAndFasterThanPerSocket() {
        for (int i = 1; i < N.length; i++) {
            assertThat(credit[i]).as("make -j %d", N[i]).isLessThan(perSocket[i]);
        }
        assertThat(credit[1]).isCloseTo(perCore[1], within(perCore[1] * 0.1));
        assertThat(credit[2]).isCloseTo(perCore[2], within(perCore[2] * 0.1));
    }
}
