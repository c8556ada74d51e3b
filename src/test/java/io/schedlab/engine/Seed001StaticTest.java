package io.schedlab.engine;

import static io.schedlab.engine.TestSpecs.cpuLoop;
import static io.schedlab.engine.TestSpecs.dom0;
import static io.schedlab.engine.TestSpecs.host;
import static io.schedlab.engine.TestSpecs.pin;
import static io.schedlab.engine.TestSpecs.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.VmResult;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import java.util.List;
import org.junit.jupiter.api.Test;
import io.schedlab.engine.run.RunControl;

/**
 * Seed 001 (E2) under {@code static}: two 1-vCPU loops placed on pCPU 1 of a 2-pCPU host share it
 * and take ~2x as long as one loop alone; pinning VM1 to pCPU 0 at T lets both finish at full speed
 * from T on.
 */
class Seed001StaticTest {
    private static final double WORK = 20.0;
    private final Engine engine = Engine.standard().withSelfCheck();

    private double completion(ResultDocument doc, String vm) {
        VmResult r = doc.vms().stream().filter(v -> v.name().equals(vm)).findFirst().orElseThrow();
        assertThat(Seconds.of(r.completionNanos())).as(vm + " completed").isNotNull();
        return Seconds.of(r.completionNanos());
    }

    private ResultDocument run(ExperimentSpec spec) {
        Validation v = engine.validate(spec, Limits.defaults());
        assertThat(v.violations()).isEmpty();
        return engine.run(v.normalized(), Limits.defaults(), RunControl.NONE);
    }

    @Test
    void twoLoopsOnOnePcpuTakeAboutTwiceAsLongAsOneAlone() {
        double alone = completion(run(spec(host(1, 2, 1), "static", 600,
                List.of(dom0(2), cpuLoop("VM1", 1, WORK)), List.of())), "VM1");
        ResultDocument both = run(spec(host(1, 2, 1), "static", 600,
                List.of(dom0(2), cpuLoop("VM1", 1, WORK), cpuLoop("VM3", 1, WORK)), List.of()));
        assertThat(alone).isCloseTo(WORK, within(WORK * 0.01));
        double ratio1 = completion(both, "VM1") / alone;
        double ratio3 = completion(both, "VM3") / alone;
        assertThat(ratio1).isBetween(1.9, 2.1);
        assertThat(ratio3).isBetween(1.9, 2.1);
        // the other pCPU stayed (almost) idle: static never moves them
        assertThat(Seconds.of(both.pcpus().get(0).busyNanos())).isLessThan(0.01 * Seconds.of(both.summary().simulatedNanos()));
        assertThat(both.summary().migrations()).isZero();
    }

    @Test
    void pinningVm1ToPcpu0RunsTheRestAtFullSpeed() {
        double t = 10.0;
        ResultDocument doc = run(spec(host(1, 2, 1), "static", 600,
                List.of(dom0(2), cpuLoop("VM1", 1, WORK), cpuLoop("VM3", 1, WORK)), List.of(pin(t, "VM1", 0, 0))));
        // Until T both progress at half speed (T/2 of work each); after T at full speed on separate pCPUs.
        double expected = t + (WORK - t / 2);
        assertThat(completion(doc, "VM1")).isCloseTo(expected, within(expected * 0.01));
        assertThat(completion(doc, "VM3")).isCloseTo(expected, within(expected * 0.01));
        VmResult vm1 = doc.vms().get(1);
        assertThat(vm1.migrations().total()).isEqualTo(1);
        assertThat(vm1.vcpus().get(0).ranOn()).extracting(p -> p.pcpu()).containsExactly(0, 1);
        assertThat(Seconds.of(vm1.vcpus().get(0).ranOn().get(0).nanos())).isCloseTo(WORK - t / 2, within(0.2));
    }

    @Test
    void exampleFileRunsAndReportsTheRatio() throws Exception {
        var json = tools.jackson.databind.json.JsonMapper.builder().build();
        ExperimentSpec spec = json.readValue(getClass().getResourceAsStream("/experiments/seed001-static.json"),
                ExperimentSpec.class);
        ResultDocument doc = run(spec);
        // 96 s of work; shared until 60 s (30 s done each), the remaining 66 s at full speed: 126 s.
        assertThat(completion(doc, "VM1")).isCloseTo(126.0, within(1.0));
        assertThat(completion(doc, "VM3")).isCloseTo(126.0, within(1.0));
        assertThat(doc.stopReason()).isEqualTo("all-complete");
    }
}
