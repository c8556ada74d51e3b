package io.schedlab.engine;

import static io.schedlab.engine.TestSpecs.cpuLoop;
import static io.schedlab.engine.TestSpecs.dom0;
import static io.schedlab.engine.TestSpecs.host;
import static io.schedlab.engine.TestSpecs.spec;
import static io.schedlab.engine.TestSpecs.vm;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.schedlab.engine.output.Distribution;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.RunqueueResult;
import io.schedlab.engine.output.VmResult;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.run.RunCancelledException;

/** The result document's conventions: nulls for "not applicable", end times, headlines, fairness, partial results. */
class ResultDocumentShapeTest {
    private final Engine engine = Engine.standard();

    private ResultDocument run(ExperimentSpec s) {
        Validation v = engine.validate(s, Limits.defaults());
        assertThat(v.violations()).isEmpty();
        return engine.run(v.normalized(), Limits.defaults(), RunControl.NONE);
    }

    /** Seed 001 static: dom0 idle on both pCPUs, VM1 and VM3 sharing pCPU 1. */
    private ResultDocument seed001Static() {
        return run(spec(host(1, 2, 1), "static", 10, List.of(dom0(2), cpuLoop("VM1", 1, 1), cpuLoop("VM3", 1, 1)),
                List.of()));
    }

    private static VmResult vmNamed(ResultDocument d, String name) {
        return d.vms().stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void fairnessCountsTheCompetingVmsOnlySoTwoIdenticalVmsAreFair() {
        ResultDocument d = seed001Static();
        assertThat(d.fairness().competingVms()).containsExactly("VM1", "VM3");
        assertThat(vmNamed(d, "dom0").competing()).isFalse();
        assertThat(vmNamed(d, "dom0").demandShare()).isLessThan(d.fairness().minDemandShare());
        assertThat(d.fairness().jainIndex()).isCloseTo(1.0, within(1e-3));
        assertThat(d.summary().jainIndex()).isEqualTo(d.fairness().jainIndex());
        // per run queue (static: one per pCPU): pCPU 1 is shared fairly, pCPU 0 had no competing VM
        RunqueueResult rq1 = d.runqueues().stream().filter(r -> r.pcpus().contains(1)).findFirst().orElseThrow();
        assertThat(rq1.competingVms()).containsExactly("VM1", "VM3");
        assertThat(rq1.jainIndex()).isCloseTo(1.0, within(1e-3));
        RunqueueResult rq0 = d.runqueues().stream().filter(r -> r.pcpus().contains(0)).findFirst().orElseThrow();
        assertThat(rq0.competingVms()).isEmpty();
        assertThat(rq0.jainIndex()).isNull();
        assertThat(d.pcpus().get(0).jainIndex()).isNull();
        assertThat(d.pcpus().get(1).jainIndex()).isEqualTo(rq1.jainIndex());
    }

    @Test
    void oneVmGettingEverythingIsUnfair() {
        // a on pCPU 0 alone, b and c sharing pCPU 1: rates 1, 1/2, 1/2 -> (2)^2 / (3 * 1.5) = 0.889
        ResultDocument d = run(spec(host(1, 2, 1), "static", 10, List.of(cpuLoop("a", 0, 1), cpuLoop("b", 1, 1),
                cpuLoop("c", 1, 1)), List.of()));
        assertThat(d.fairness().jainIndex()).isCloseTo(4.0 / 4.5, within(1e-3));
    }

    @Test
    void completedVmsHaveAnEndAndTheHeadlineNamesItsUnit() {
        ResultDocument d = seed001Static();
        VmResult vm1 = vmNamed(d, "VM1");
        assertThat(vm1.completionNanos()).isNotNull();
        assertThat(vm1.endNanos()).isEqualTo(vm1.completionNanos());
        assertThat(vmNamed(d, "dom0").endNanos()).as("dom0 runs to the end").isNull();
        assertThat(vm1.headline().unit()).isEqualTo("s");
        assertThat(vm1.headline().meaning()).contains("completion time").contains("lower is better");
        assertThat(vm1.headline().value()).isCloseTo(Seconds.of(vm1.completionNanos()), within(1e-9));
        assertThat(vmNamed(d, "dom0").headline().unit()).isEqualTo("bursts/s");
        assertThat(d.summary().vmHeadline().get("VM1")).isEqualTo(vm1.headline());
        assertThat(d.summary().simulatedNanos()).isEqualTo(d.totals().simulatedNanos());
    }

    @Test
    void emptyDistributionsAreNullNotZero() {
        ResultDocument d = run(spec(host(1, 1, 1), "static", 10, List.of(cpuLoop("a", 0, 0.5)), List.of()));
        Distribution wake = vmNamed(d, "a").wakeLatency();
        assertThat(wake.count()).isZero();
        assertThat(wake.p50Nanos()).isNull();
        assertThat(wake.meanNanos()).isNull();
        assertThat(wake.maxNanos()).isNull();
        assertThat(wake.cdf()).isEmpty();
        assertThat(d.totals().numaLocalFraction()).as("no memory streams").isNull();
    }

    @Test
    void theSameWakeUpsGiveTheSamePercentilesEverywhere() {
        ResultDocument d = run(spec(host(1, 2, 1), "static", 2, List.of(cpuLoop("hog", 0, 5),
                vm("ui", 1, List.of(0), "interactive", Map.of("wakeups", 300))), List.of()));
        Distribution vmWide = vmNamed(d, "ui").wakeLatency();
        assertThat(vmWide.count()).isGreaterThan(20);
        assertThat(d.distributions().wakeLatency()).as("only ui wakes up").isEqualTo(vmWide);
        assertThat(vmNamed(d, "ui").vcpus().get(0).wakeLatency()).as("ui has one vCPU").isEqualTo(vmWide);
        assertThat(vmWide.cdf()).isNotEmpty();
    }

    @Test
    void aCancelledRunCarriesItsPartialResult() {
        // credit ticks every 10 ms: tens of thousands of events, past the engine's first cancel poll
        ExperimentSpec s = engine.validate(spec(host(1, 1, 1), "credit", 600, List.of(cpuLoop("a", 0, 300),
                cpuLoop("b", 0, 300)), List.of()), Limits.defaults()).normalized();
        RunControl cancelAtOnce = new RunControl() {
            @Override
            public void progress(double fraction, long simulatedNanos, long eventsProcessed) {
            }

            @Override
            public boolean cancelRequested() {
                return true;
            }
        };
        assertThatThrownBy(() -> engine.run(s, Limits.defaults(), cancelAtOnce))
                .isInstanceOfSatisfying(RunCancelledException.class, e -> {
                    ResultDocument partial = e.partialResult().orElseThrow();
                    assertThat(partial.partial()).isTrue();
                    assertThat(partial.stopReason()).isEqualTo(ResultDocument.STOP_STOPPED);
                    long reached = partial.summary().simulatedNanos();
                    assertThat(reached).isPositive().isLessThan(600_000_000_000L);
                    assertThat(vmNamed(partial, "a").cpuNanosAllVcpus() + vmNamed(partial, "b").cpuNanosAllVcpus())
                            .isEqualTo(partial.pcpus().get(0).busyNanos());
                    assertThat(partial.pcpus().get(0).busyNanos() + partial.pcpus().get(0).idleNanos()
                            + partial.pcpus().get(0).overheadNanos()).isEqualTo(reached);
                });
        assertThat(run(spec(host(1, 1, 1), "static", 10, List.of(cpuLoop("a", 0, 0.1)), List.of())).partial())
                .isFalse();
    }
}
