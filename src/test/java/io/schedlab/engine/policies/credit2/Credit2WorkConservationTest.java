package io.schedlab.engine.policies.credit2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedlab.engine.Engine;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.Validation;
import io.schedlab.engine.policies.PolicyRuns;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.sim.SimulatorProbe;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.TraceSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The self-check's work-conservation bound for credit2 with several run queues: a vCPU may wait beside an
 * idle pCPU of another run queue only as long as balance_load needs to see the imbalance (two load windows
 * of the modelled release plus a few slices, {@link Credit2Policy#balancePeriodNanos()}); a balancer that
 * never moves anything leaves two of four loops waiting beside the other socket's idle pCPUs and fails it.
 */
class Credit2WorkConservationTest {
    private static final Engine CHECKED = Engine.standard().withSelfCheck();

    /** Four endless loops started on socket 0's two pCPUs of a 2 x 2 host, one run queue per socket. */
    private static ExperimentSpec fourLoopsOnSocketZero(Map<String, Object> credit2Params) {
        Map<String, Object> p = new LinkedHashMap<>(credit2Params);
        p.put("runqueue", "socket");
        return new ExperimentSpec("work conservation", null, 5L, 6.0, ExperimentSpec.StopCondition.DURATION,
                new HostSpec(2, 2, 1, null, null, null, null), new SchedulerSpec("credit2", p), null,
                List.of(PolicyRuns.loops("guest", 256, 0, 4, 0, 1, 0, 1)), null, new TraceSpec(false, null));
    }

    private static ResultDocument runChecked(ExperimentSpec raw) {
        Validation v = CHECKED.validate(raw, Limits.defaults());
        assertThat(v.violations()).as("violations").isEmpty();
        return CHECKED.run(v.normalized(), Limits.defaults(), RunControl.NONE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"4.6", "latest"})
    void theRealBalancerSpreadsTheLoopsWithinTheBound(String version) {
        ResultDocument doc = runChecked(fourLoopsOnSocketZero(Map.of("xenVersion", version)));
        // passed the self-check; and the loops did get the whole host once balanced: each ran most of 6 s
        for (var vcpu : PolicyRuns.vm(doc, "guest").vcpus()) {
            assertThat(vcpu.cpuNanos() / 1e9).as(version + " vCPU " + vcpu.vcpu()).isGreaterThan(4.0);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"4.6", "latest"})
    void aBalancerThatNeverMovesAnythingFailsTheSelfCheck(String version) {
        // credit2_balance_under / credit2_balance_over at 2^8 vCPUs: balance_load never finds a difference
        // large enough, the broken-balancer stand-in
        ExperimentSpec broken = fourLoopsOnSocketZero(Map.of("xenVersion", version,
                "underloadBalanceTolerance", 8, "overloadBalanceTolerance", 8));
        assertThatThrownBy(() -> runChecked(broken)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("idle").hasMessageContaining("credit2");
    }

    @ParameterizedTest
    @ValueSource(strings = {"4.6", "latest"})
    void theBoundIsTwoLoadWindowsOfTheReleasePlusFourSlices(String version) {
        Credit2Policy pol = SimulatorProbe.of(fourLoopsOnSocketZero(Map.of("xenVersion", version)))
                .policy(Credit2Policy.class);
        Credit2Params params = pol.params();
        long window = 1L << params.effectiveLoadWindowShift();
        assertThat(window).isEqualTo("4.6".equals(version) ? 1L << 28 : 1L << 30);
        // a slice is CSCHED2_MAX_TIMER: 2 ms in 4.6, CSCHED2_CREDIT_INIT (10 ms) from 4.8 (da92ec5bd1)
        long slice = "4.6".equals(version) ? 2_000_000L : 10_000_000L;
        assertThat(pol.balancePeriodNanos()).isEqualTo(2 * window + 4 * slice);
    }
}
