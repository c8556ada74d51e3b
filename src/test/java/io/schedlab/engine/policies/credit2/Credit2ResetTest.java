package io.schedlab.engine.policies.credit2;

import static io.schedlab.engine.policies.PolicyRuns.loops;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.policies.PolicyRuns;
import io.schedlab.engine.sim.SimulatorProbe;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Xen 4e98fd591232: a vCPU with 200 us of credit ran 11 ms and came back at -10.8 ms; adding CSCHED2_CREDIT_INIT
 * (10 ms) once left it negative, so reset_credit adds it m = 1 + (-credit / CREDIT_INIT) times. The lower bound of
 * credit (creditMinUs, -CREDIT_INIT by default) is set below it here, so credit can reach -10.8 ms as in the commit.
 */
class Credit2ResetTest {
    private static final long MS = 1_000_000L;
    private static final long US = 1_000L;

    @Test
    void oneResetBringsCreditFromBelowMinusCreditInitBackAboveZero() {
        SimulatorProbe sim = PolicyRuns.probe("credit2", Map.of("ratelimitUs", 0, "creditMinUs", -1_000_000), 1, 1, 1, 1.0,
                List.of(loops("a", 256, 0, 1, 0)));
        Credit2Policy pol = sim.policy(Credit2Policy.class);
        Vcpu va = sim.vcpu("a", 0);
        sim.runUntil(20 * MS);
        long resets = pol.resetCount();
        Credit2Vcpu svc = (Credit2Vcpu) va.policyData;
        svc.credit = 200 * US - 11 * MS; // 200 us of credit, then ran 11 ms
        pol.doSchedule(sim.pcpu(0), va, false);
        assertThat(pol.resetCount()).isEqualTo(resets + 1);
        // -10.8 ms + 2 x 10 ms (one CREDIT_INIT alone would leave -0.8 ms)
        assertThat(Credit2Policy.creditOf(va)).isCloseTo(9_200 * US, org.assertj.core.data.Offset.offset(10 * US));
    }
}
