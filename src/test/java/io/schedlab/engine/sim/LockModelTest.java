package io.schedlab.engine.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.Validation;
import io.schedlab.engine.output.Distributions;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Lock cost as a mechanism: with one global gEDF lock, decisions and context_saved queue behind each other,
 * so both distributions widen as more pCPUs share the lock; the hold follows the work reported under the lock;
 * policies that report no work (credit) keep the per-sharer charge.
 */
class LockModelTest {
    private static final Engine ENGINE = Engine.standard().withSelfCheck();

    /** E1's set-up on {@code cores} cores: dom0 pinned to pCPU 0, one endless loop per other pCPU. */
    private static ResultDocument e1(String policy, int cores, Map<String, Object> costs) {
        List<Integer> guestCpus = new ArrayList<>();
        for (int c = 1; c < cores; c++) {
            guestCpus.add(c);
        }
        List<VmSpec> vms = List.of(
                new VmSpec("dom0", 1, null, null, List.of(0), null, null, null, null, null, null,
                        new WorkloadSpec("idle", Map.of())),
                new VmSpec("guest", cores - 1, null, null, guestCpus, null, null, null, null, null, null,
                        new WorkloadSpec("cpu-loop", Map.of("threads", cores - 1, "workSeconds", 0))));
        ExperimentSpec spec = new ExperimentSpec("lock", null, 0L, 0.5, ExperimentSpec.StopCondition.DURATION,
                new HostSpec(1, cores, 1, null, null, null, null), new SchedulerSpec(policy, null), costs, vms,
                null, null);
        Validation v = ENGINE.validate(spec, Limits.defaults());
        assertThat(v.violations()).isEmpty();
        return ENGINE.run(v.normalized(), Limits.defaults(), RunControl.NONE);
    }

    @Test
    void decisionAndContextSavedWaitsGrowWithThePcpusSharingTheGedfLock() {
        Distributions previous = null;
        for (int cores : List.of(6, 12, 24)) {
            Distributions d = e1("gedf", cores, null).distributions();
            if (previous != null) {
                assertThat(d.decision().p99Nanos()).as("decision p99 at %d cores", cores)
                        .isGreaterThan(previous.decision().p99Nanos());
                assertThat(d.contextSaved().p99Nanos()).as("context_saved p99 at %d cores", cores)
                        .isGreaterThan(previous.contextSaved().p99Nanos());
            }
            previous = d;
        }
        // Waiting, not only holding: the widest context_saved is far beyond its own hold (200 ns + entries).
        assertThat(previous.contextSaved().maxNanos()).isGreaterThan(5_000);
    }

    @Test
    void theHoldFollowsTheWorkUnderTheLock() {
        long without = e1("gedf", 12, Map.of("lockPerEntryNanos", 0)).distributions().decision().p50Nanos();
        long with = e1("gedf", 12, Map.of("lockPerEntryNanos", 100)).distributions().decision().p50Nanos();
        assertThat(with).isGreaterThan(without);
        double rtds = e1("rtds", 12, Map.of("lockPerEntryNanos", 100)).distributions().decision().meanNanos();
        assertThat(rtds).isGreaterThan(e1("rtds", 12, Map.of("lockPerEntryNanos", 0)).distributions().decision()
                .meanNanos());
    }

    @Test
    void policiesThatReportNoWorkKeepThePerSharerCharge() {
        ResultDocument a = e1("credit2", 12, Map.of("lockPerEntryNanos", 0, "lockBaseNanos", 0));
        ResultDocument b = e1("credit2", 12, Map.of("lockPerEntryNanos", 500, "lockBaseNanos", 900));
        assertThat(b.withoutWallTime().distributions()).isEqualTo(a.withoutWallTime().distributions());
        assertThat(b.withoutWallTime().vms()).isEqualTo(a.withoutWallTime().vms());
    }
}
