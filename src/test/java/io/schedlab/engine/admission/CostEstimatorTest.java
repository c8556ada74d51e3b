package io.schedlab.engine.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.Validation;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The estimator against measured runs: for varied specs (policies, host sizes, every workload
 * family, overload and idle hosts, credit2's timer floor) the estimated event count is within 2x
 * of the events the engine really simulated.
 */
class CostEstimatorTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Engine ENGINE = Engine.standard();

    static List<String> specs() {
        List<String> out = new ArrayList<>();
        String[] policies = {"credit", "credit2", "static"};
        for (String policy : policies) {
            out.add(spec(policy, 2, 4, 1, "{\"type\":\"cpu-loop\",\"params\":{\"workSeconds\":0}}", 2, ""));
            out.add(spec(policy, 4, 3, 2, "{\"type\":\"interactive\",\"params\":{\"threads\":2,\"thinkMeanMs\":5,\"burstMeanUs\":300}}", 2, ""));
        }
        out.add(spec("credit2", 4, 8, 1, "{\"type\":\"spinlock\",\"params\":{\"outsideUs\":200,\"insideUs\":20}}", 1, ""));
        out.add(spec("credit2", 4, 1, 4, "{\"type\":\"hackbench\",\"params\":{\"groups\":2,\"fds\":4,\"loops\":300}}", 1, ""));
        out.add(spec("credit", 8, 4, 2, "{\"type\":\"parallel-build\",\"params\":{\"parallelism\":2,\"jobs\":200,\"jobMeanMs\":20}}", 5, ""));
        out.add(spec("credit2", 2, 2, 1, "{\"type\":\"memory-bandwidth\",\"params\":{\"threads\":1}}", 1, ""));
        out.add(spec("credit", 16, 4, 2, "{\"type\":\"idle\",\"params\":{\"threads\":2}}", 5, ""));
        out.add(spec("credit2", 2, 4, 1, "{\"type\":\"cpu-loop\",\"params\":{\"workSeconds\":0}}", 1, ",\"minTimerUs\":10"));
        out.add(spec("credit2", 4, 6, 1, "{\"type\":\"interactive\",\"params\":{\"threads\":1,\"thinkMeanMs\":0.05,\"burstMeanUs\":5}}", 0.5, ",\"minTimerUs\":10"));
        return out;
    }

    /** {@code vmsCount} VMs of {@code vcpus} each with {@code workload} on a host of {@code pcpus}. */
    private static String spec(String policy, int pcpus, int vmsCount, int vcpus, String workload, double seconds,
            String extraParams) {
        StringBuilder vms = new StringBuilder();
        for (int i = 0; i < vmsCount; i++) {
            vms.append(i == 0 ? "" : ",").append("{\"name\":\"vm").append(i).append("\",\"vcpus\":").append(vcpus)
                    .append(",\"workload\":").append(workload).append('}');
        }
        String params = "credit2".equals(policy) ? "{\"xenVersion\":\"latest\"" + extraParams + "}" : "{}";
        return "{\"seed\":3,\"durationSeconds\":" + seconds + ",\"stopWhen\":\"duration\",\"host\":{\"sockets\":1,"
                + "\"coresPerSocket\":" + pcpus + ",\"threadsPerCore\":1},\"scheduler\":{\"policy\":\"" + policy
                + "\",\"params\":" + params + "},\"vms\":[" + vms + "]}";
    }

    @ParameterizedTest
    @MethodSource("specs")
    void estimatedEventsAreWithinTwiceTheMeasured(String json) {
        ExperimentSpec normalized = normalize(json);
        long measured = ENGINE.run(normalized, Limits.defaults(), RunControl.NONE).summary().events();
        long estimated = CostEstimator.estimate(normalized, ENGINE.registry()).events();
        double ratio = (double) estimated / measured;
        System.out.printf("estimate %,d measured %,d ratio %.2f  %s%n", estimated, measured, ratio, json);
        assertThat(ratio).as("estimate %d vs measured %d for %s", estimated, measured, json).isBetween(0.5, 2.0);
    }

    @Test
    void theHostileRunsAreEstimatedFarAboveTheDefaultLimits() {
        String floor = spec("credit2", 256, 1024, 2,
                "{\"type\":\"interactive\",\"params\":{\"threads\":1,\"thinkMeanMs\":0.01,\"burstMeanUs\":1}}", 3600,
                ",\"minTimerUs\":10");
        assertThat(CostEstimator.estimate(normalize(floor), ENGINE.registry()).events()).isGreaterThan(Limits.defaults().maxEvents());
        String threads = spec("credit", 64, 512, 1, "{\"type\":\"idle\",\"params\":{\"threads\":4096}}", 10, "");
        assertThat(CostEstimator.estimate(normalize(threads), ENGINE.registry()).heapBytes()).isGreaterThan(1L << 30);
    }

    static ExperimentSpec normalize(String json) {
        Validation v = ENGINE.validate(JSON.readValue(json, ExperimentSpec.class), Limits.defaults());
        assertThat(v.violations()).as(json).isEmpty();
        return v.normalized();
    }
}
