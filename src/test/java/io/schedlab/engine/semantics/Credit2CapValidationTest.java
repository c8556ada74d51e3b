package io.schedlab.engine.semantics;

import static io.schedlab.engine.semantics.SemanticsSpecs.host;
import static io.schedlab.engine.semantics.SemanticsSpecs.loop;
import static io.schedlab.engine.semantics.SemanticsSpecs.sched;
import static io.schedlab.engine.semantics.SemanticsSpecs.spec;
import static io.schedlab.engine.semantics.SemanticsSpecs.validate;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Validation;
import io.schedlab.engine.spec.ExperimentSpec.StopCondition;
import io.schedlab.engine.spec.TimelineAction;
import io.schedlab.engine.spec.Violation;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** credit2 gained caps in Xen 4.10: a cap under an older xenVersion is a validation error naming the field. */
class Credit2CapValidationTest {

    @Test
    void vmCapUnderXen46IsRejectedAtItsPointer() {
        Validation v = validate(spec(host(1, 2, 1), sched("credit2", Map.of("xenVersion", "4.6")), 10,
                StopCondition.DURATION, List.of(loop("A", 1, null, null, List.of(0), 0),
                        loop("B", 1, null, 50, List.of(1), 0)), List.of()));
        assertThat(v.valid()).isFalse();
        assertThat(v.violations()).extracting(Violation::pointer).containsExactly("/vms/1/cap");
        assertThat(v.violations().get(0).message()).contains("xenVersion >= 4.10").contains("4.6");
    }

    @Test
    void setCapActionUnderXen49IsRejected() {
        TimelineAction setCap = new TimelineAction(1.0, TimelineAction.Kind.SET_CAP, "A", null, null, null, 30, null);
        Validation v = validate(spec(host(1, 2, 1), sched("credit2", Map.of("xenVersion", "4.9")), 10,
                StopCondition.DURATION, List.of(loop("A", 1, null, null, List.of(0), 0)), List.of(setCap)));
        assertThat(v.violations()).extracting(Violation::pointer).containsExactly("/timeline/0/cap");
    }

    @Test
    void capsAreAcceptedFrom410AndByCredit() {
        for (var s : List.of(sched("credit2", Map.of("xenVersion", "4.10")), sched("credit2", null),
                sched("credit", null))) {
            Validation v = validate(spec(host(1, 2, 1), s, 10, StopCondition.DURATION,
                    List.of(loop("A", 1, null, 50, List.of(0), 0)), List.of()));
            assertThat(v.violations()).as(s.toString()).isEmpty();
        }
    }
}
