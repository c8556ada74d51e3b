package io.schedlab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;
import io.schedlab.engine.run.RunControl;

/**
 * costs.refillProgressFraction 0 is the stall-until-refilled model: golden specs run with it give, byte for
 * byte, the stalling model's result documents ({@code src/test/resources/refill-stall}: first the golden results
 * of the engine before progress during a refill existed, regenerated with the golden runs at each deliberate
 * model change since, e.g. the cache-reload transient; {@code -Dgolden.update=true}); with the default they differ.
 */
class RefillStallDifferentialTest {
    private static final Path GOLDEN = Path.of("src/test/resources/golden");
    private static final Path STALL = Path.of("src/test/resources/refill-stall");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static String run(ExperimentSpec spec) {
        Engine engine = Engine.standard();
        Validation v = engine.validate(spec, Limits.defaults());
        assertThat(v.violations()).isEmpty();
        ResultDocument doc = engine.run(v.normalized(), Limits.defaults(), RunControl.tracingTo((t, p, e, vm, vcpu) -> { }));
        return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(doc.withoutWallTime()) + "\n";
    }

    private static ExperimentSpec withFraction(ExperimentSpec s, double fraction) {
        Map<String, Object> costs = new LinkedHashMap<>(s.costs() == null ? Map.of() : s.costs());
        costs.put("refillProgressFraction", fraction);
        return new ExperimentSpec(s.name(), s.labels(), s.seed(), s.durationSeconds(), s.stopWhen(), s.host(),
                s.scheduler(), costs, s.vms(), s.timeline(), s.trace());
    }

    @ParameterizedTest
    @ValueSource(strings = {"cfs-kvm-ple-host-threads", "credit-numa-soft-spinlock",
            "credit2-core-46-smt"})
    void fractionZeroReproducesTheStallingModel(String name) throws IOException {
        ExperimentSpec spec = JSON.readValue(Files.readString(GOLDEN.resolve(name + ".spec.json")), ExperimentSpec.class);
        Path stored = STALL.resolve(name + ".result.json");
        String stall = run(withFraction(spec, 0.0));
        if (Boolean.getBoolean("golden.update")) {
            Files.writeString(stored, stall, StandardCharsets.UTF_8);
        }
        assertThat(stored).as("stalling-model result %s is missing; create it deliberately with -Dgolden.update=true",
                stored).exists();
        String stalling = Files.readString(stored, StandardCharsets.UTF_8);
        assertThat(stall).isEqualTo(stalling);
        assertThat(run(spec)).as("the default fraction moves this run (its vCPUs refill caches)").isNotEqualTo(stalling);
    }
}
