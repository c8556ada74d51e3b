package io.schedlab.engine.policies.credit2;

import static io.schedlab.engine.policies.PolicyRuns.loops;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.policies.PolicyRuns;
import io.schedlab.engine.output.ResultDocument;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Xen ae648e9f8013 (2025-07-28), describing the code before it: two equally weighted busy units on one
 * credit2 run queue switch every 10 ms (CSCHED2_MAX_TIMER, sched/credit2.c), so about 100 switches a
 * second on one pCPU.
 */
class Credit2MaxTimerSwitchingTest {

    @Test
    void twoEquallyWeightedLoopsOnOnePcpuSwitchAboutEveryTenMilliseconds() {
        ResultDocument doc = PolicyRuns.run("credit2", Map.of(), 1, 1, 1, 2.0,
                List.of(loops("a", 256, 0, 1), loops("b", 256, 0, 1)));
        double perSecond = doc.totals().contextSwitches() / 2.0;
        assertThat(perSecond).as("one switch per 10 ms").isBetween(90.0, 110.0);
    }
}
