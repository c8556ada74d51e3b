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
import org.junit.jupiter.api.Test;

/**
 * A pin under rtds mid-run (xl vcpu-pin): the policy hears of it, so runq_tickle's "allowed everywhere" answer
 * (TickleTargets.allowsAll, cached per vCPU) follows the new affinity; with assertions on, a stale one fails the run.
 */
class RtdsPinTest {
    private static final double WORK = 2.0;

    private static double[] completions(List<TimelineAction> timeline) {
        ResultDocument d = run(spec(host(1, 2, 1), sched("rtds", null), 60, StopCondition.ALL_COMPLETE,
                List.of(dom0(2), loop("VM1", 1, null, null, null, WORK), loop("VM3", 1, null, null, null, WORK)),
                timeline));
        return new double[] {Seconds.of(vmResult(d, "VM1").completionNanos()),
            Seconds.of(vmResult(d, "VM3").completionNanos())};
    }

    @Test
    void pinningThenUnpinningAVcpuKeepsBothLoopsOnTheirOwnPcpus() {
        TimelineAction unpin = new TimelineAction(1.0, TimelineAction.Kind.UNPIN, "VM1", 0, null, null, null, null);
        double[] pinned = completions(List.of(pin(0.5, "VM1", 0, 0), unpin));
        double[] free = completions(List.of());
        // two loops on two pCPUs finish in about their work either way (rtds extratime: nothing waits for budget)
        assertThat(free[0]).isCloseTo(WORK, within(WORK * 0.05));
        assertThat(pinned[0]).isCloseTo(free[0], within(WORK * 0.05));
        assertThat(pinned[1]).isCloseTo(free[1], within(WORK * 0.05));
    }
}
