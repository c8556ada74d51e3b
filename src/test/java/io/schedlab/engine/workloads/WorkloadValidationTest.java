package io.schedlab.engine.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Validation;
import io.schedlab.engine.spec.ExperimentSpec.StopCondition;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.Violation;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Bad workload input comes back as violations naming the field (and the CSV row), never as an exception. */
class WorkloadValidationTest {

    private static List<Violation> violations(String type, Map<String, Object> params) {
        Validation v = EngineRuns.ENGINE.validate(EngineRuns.spec(EngineRuns.host(1, 2, 1), "static",
                StopCondition.DURATION, 1, List.of(EngineRuns.vm("vm", 1, null, null, null, type, params))),
                Limits.defaults());
        return v.violations();
    }

    @Test
    void aBadTraceRowIsAViolationOnTheCsvParameterNamingTheRow() {
        assertThat(violations("trace", Map.of("csv", "vcpu,run_us,sleep_us\n0,100,100\n0,-5,100\n")))
                .containsExactly(new Violation("/vms/0/workload/params/csv",
                        "csv row 2: run_us -5 is out of range 0..3600000000"));
    }

    @Test
    void anOverlongTraceIsRejectedByItsLengthBound() {
        String huge = "vcpu,run_us,sleep_us\n" + "0,1,1\n".repeat(TraceWorkload.MAX_CSV_CHARS / 6 + 1);
        assertThat(violations("trace", Map.of("csv", huge))).singleElement()
                .satisfies(v -> assertThat(v.pointer()).isEqualTo("/vms/0/workload/params/csv"))
                .satisfies(v -> assertThat(v.message()).contains("longer than " + TraceWorkload.MAX_CSV_CHARS));
    }

    @Test
    void outOfBoundsAndUnknownParametersNameTheField() {
        assertThat(violations("parallel-build", Map.of("jobs", 0))).extracting(Violation::pointer)
                .containsExactly("/vms/0/workload/params/jobs");
        assertThat(violations("memory-bandwidth", Map.of("blockSize", 4))).extracting(Violation::pointer)
                .containsExactly("/vms/0/workload/params/blockSize");
        assertThat(violations("parallel-build", Map.of("distribution", "normal"))).extracting(Violation::message)
                .containsExactly("must be one of lognormal, gamma, exponential");
        assertThat(violations("spinlock", Map.of("insideUs", 0.0))).extracting(Violation::pointer)
                .containsExactly("/vms/0/workload/params/insideUs");
        assertThat(violations("request-response", Map.of("connections", 5000, "linkMbps", -1.0)))
                .extractingResultOf("pointer").containsExactlyInAnyOrder("/vms/0/workload/params/connections",
                        "/vms/0/workload/params/linkMbps");
    }

    @Test
    void goodInputHasNoViolations() {
        assertThat(violations("trace", Map.of("csv", "vcpu,run_us,sleep_us\n0,100,100\n"))).isEmpty();
        assertThat(violations("interactive", Map.of())).isEmpty();
        assertThat(violations("request-response", Map.of("connections", 256, "linkMbps", 1000.0))).isEmpty();
    }
}
