package io.schedlab.engine.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.schedlab.engine.Seconds;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.VmResult;
import io.schedlab.engine.spec.ExperimentSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** parallel-build's guest-kernel lock sections: the same jobs, plus contended critical sections that spin. */
class ParallelBuildLockSectionsTest {

    private static VmResult build(int sections) {
        return build(sections, "ticket");
    }

    private static VmResult build(int sections, String spinlock) {
        Map<String, Object> params = Map.of("parallelism", 8, "jobs", 40, "jobMeanMs", 2.0, "serialTailMs", 0.0,
                "ioMeanMs", 0.0, "lockSections", sections, "lockUs", 20.0, "spinlock", spinlock);
        ResultDocument doc = EngineRuns.run(EngineRuns.spec(EngineRuns.host(1, 4, 1), "credit2",
                ExperimentSpec.StopCondition.ALL_COMPLETE, 10, List.of(EngineRuns.vm("make", 8, null, null, null,
                        "parallel-build", params))));
        return EngineRuns.vmResult(doc, "make");
    }

    @Test
    void sectionsAddTheirCpuTimeAndContendWithoutChangingTheJobs() {
        VmResult plain = build(0);
        VmResult locked = build(10);
        assertThat(plain.workloadDetails().get("jobsCompleted")).isEqualTo(40.0);
        assertThat(locked.workloadDetails().get("jobsCompleted")).isEqualTo(40.0);
        double added = locked.workloadDetails().get("serialWorkSeconds")
                - plain.workloadDetails().get("serialWorkSeconds");
        assertThat(added).isCloseTo(40 * 10 * 20e-6, within(1e-9));
        assertThat(Seconds.of(plain.spinNanosAllVcpus())).isZero();
        assertThat(Seconds.of(locked.spinNanosAllVcpus())).as("8 job slots on 4 CPUs contend for the lock").isPositive();
        assertThat(locked.headline().value()).isGreaterThan(plain.headline().value());
    }

    /**
     * 8 vCPUs on 4 CPUs: a ticket lock is handed to its longest waiter even while that waiter's vCPU is
     * preempted, and every running spinner waits behind it; a test-and-set lock goes to a running spinner.
     */
    @Test
    void testAndSetLocksSpinLessThanTicketLocksWhenWaitersArePreempted() {
        VmResult ticket = build(10, "ticket");
        VmResult tas = build(10, "test-and-set");
        assertThat(tas.workloadDetails().get("jobsCompleted")).isEqualTo(40.0);
        assertThat(tas.spinNanosAllVcpus()).isPositive().isLessThan(ticket.spinNanosAllVcpus());
    }
}
