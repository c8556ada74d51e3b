package io.schedlab.engine.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.Validation;
import io.schedlab.engine.spec.Limits;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** E4 runs for real: every cell is a valid cfs-on-kvm experiment with one PLE handler variant per column. */
class E4ScenarioTest {

    @Test
    void everyCellRunsCfsUnderKvmWithItsHandlerVariant() {
        Engine engine = Engine.standard();
        for (boolean quick : new boolean[] {true, false}) {
            Scenario e4 = BuiltInScenarios.byId("E4", quick).orElseThrow();
            TreeSet<Object> handlers = new TreeSet<>();
            for (ScenarioRun run : e4.tables().get(0).runs()) {
                Validation v = engine.validate(run.spec(), Limits.defaults());
                assertThat(v.violations()).as(run.label()).isEmpty();
                assertThat(v.normalized().scheduler().policy()).isEqualTo("cfs");
                assertThat(v.normalized().scheduler().hypervisor()).isEqualTo("kvm");
                Object handler = v.normalized().scheduler().params().get("pleHandler");
                assertThat(v.normalized().scheduler().params()).as("the KVM of 2012: fixed PLE window, any preempted "
                        + "vCPU a candidate").containsEntry("pleWindowGrow", 0L).containsEntry("yieldToKernelMode", false);
                assertThat(run.measures()).singleElement().satisfies(m -> assertThat(m.column()).isEqualTo(handler));
                handlers.add(handler);
            }
            assertThat(handlers).containsExactlyInAnyOrderElementsOf(E4PauseLoopExiting.E4_COLUMNS);
        }
    }
}
