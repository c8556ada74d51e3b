package io.schedlab.engine.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.ExperimentSpec.StopCondition;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunLengthTest {

    @Test
    void threeTimesTheLengthTriplesDurationTimelineAndFiniteWorkButNotEndlessWork() {
        ExperimentSpec spec = Specs.experiment("x", 1, StopCondition.ALL_COMPLETE, 60, Specs.host(1, 2, 1),
                Specs.policy("credit"), List.of(
                        Specs.vm("build", 2, Specs.workload("parallel-build", "parallelism", 2)),
                        Specs.vm("loop", 1, Specs.workload("cpu-loop", "workSeconds", 4.5)),
                        Specs.vm("spin", 1, Specs.workload("spinlock", "records", 0))),
                List.of(Specs.pin(2, "loop", 0, List.of(0))));

        ExperimentSpec longer = RunLength.scaled(spec, 3, Engine.standard().registry());

        assertThat(longer.durationSeconds()).isEqualTo(180.0);
        assertThat(longer.timeline().get(0).atSeconds()).isEqualTo(6.0);
        assertThat(num(longer, 0, "jobs")).as("the default 1000 jobs, tripled").isEqualTo(3000);
        assertThat(num(longer, 0, "serialTailMs")).as("the default 6 s link, tripled").isEqualTo(18000);
        assertThat(num(longer, 0, "parallelism")).as("not an amount of work").isEqualTo(2);
        assertThat(num(longer, 1, "workSeconds")).isEqualTo(13.5);
        assertThat(num(longer, 2, "records")).as("endless stays endless").isEqualTo(0);
        assertThat(spec.durationSeconds()).as("the original is untouched").isEqualTo(60.0);
    }

    private static double num(ExperimentSpec spec, int vm, String param) {
        return ((Number) spec.vms().get(vm).workload().params().get(param)).doubleValue();
    }
}
