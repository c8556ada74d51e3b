package io.schedlab.engine.semantics;

import static io.schedlab.engine.semantics.SemanticsSpecs.dom0;
import static io.schedlab.engine.semantics.SemanticsSpecs.host;
import static io.schedlab.engine.semantics.SemanticsSpecs.loop;
import static io.schedlab.engine.semantics.SemanticsSpecs.pin;
import static io.schedlab.engine.semantics.SemanticsSpecs.run;
import static io.schedlab.engine.semantics.SemanticsSpecs.sched;
import static io.schedlab.engine.semantics.SemanticsSpecs.spec;
import static io.schedlab.engine.semantics.SemanticsSpecs.vmResult;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.schedlab.engine.Seconds;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec.StopCondition;
import io.schedlab.engine.spec.TimelineAction;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Seed 001 (E2): two 1-vCPU loops placed on pCPU 1 of a 2-pCPU host (dom0 idle). Under
 * {@code static} they share pCPU 1; credit (placement on wake, work stealing) and credit2
 * (placement, tickling of idle pCPUs) run them in parallel.
 */
class Seed001BalancingTest {
    private static final double WORK = 20.0;

    private static double slowest(String policy, List<TimelineAction> timeline) {
        ResultDocument d = run(spec(host(1, 2, 1), sched(policy, null), 600, StopCondition.ALL_COMPLETE,
                List.of(dom0(2), loop("VM1", 1, null, null, List.of(1), WORK),
                        loop("VM3", 1, null, null, List.of(1), WORK)),
                timeline));
        return Math.max(Seconds.of(vmResult(d, "VM1").completionNanos()), Seconds.of(vmResult(d, "VM3").completionNanos()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"credit", "credit2"})
    void balancingSchedulerRemovesThePathology(String policy) {
        double pathological = slowest("static", List.of());
        double balanced = slowest(policy, List.of());
        double ratio = pathological / balanced;
        assertThat(ratio).isBetween(1.8, 2.6);
        assertThat(balanced).isCloseTo(WORK, within(WORK * 0.02));
    }

    @ParameterizedTest
    @ValueSource(strings = {"credit", "credit2"})
    void aPinUnderABalancingSchedulerChangesNothing(String policy) {
        double unpinned = slowest(policy, List.of());
        double pinned = slowest(policy, List.of(pin(5.0, "VM1", 0, 0)));
        assertThat(pinned).isCloseTo(unpinned, within(WORK * 0.02));
    }
}
