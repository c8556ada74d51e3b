package io.schedlab.engine;

import static io.schedlab.engine.TestSpecs.cpuLoop;
import static io.schedlab.engine.TestSpecs.dom0;
import static io.schedlab.engine.TestSpecs.host;
import static io.schedlab.engine.TestSpecs.pin;
import static io.schedlab.engine.TestSpecs.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import io.schedlab.engine.run.RunControl;

/** The result document and the spec survive a JSON round trip (the service stores both as JSON). */
class ResultDocumentJsonTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void resultDocumentRoundTripsThroughJson() {
        Engine engine = Engine.standard();
        ExperimentSpec s = engine.validate(spec(host(1, 2, 1), "static", 10,
                List.of(dom0(2), cpuLoop("VM1", 1, 1), cpuLoop("VM3", 1, 1)), List.of(pin(0.5, "VM1", 0, 0))),
                Limits.defaults()).normalized();
        ResultDocument doc = engine.run(s, Limits.defaults(), RunControl.NONE);
        String json = JSON.writeValueAsString(doc);
        ResultDocument back = JSON.readValue(json, ResultDocument.class);
        assertThat(JSON.writeValueAsString(back)).isEqualTo(json);
        assertThat(back.vms()).hasSize(3);
        assertThat(back.summary().vmHeadline()).containsKeys("dom0", "VM1", "VM3");
    }

    @Test
    void normalizedSpecRoundTripsThroughJsonWithKebabCaseEnums() {
        Engine engine = Engine.standard();
        ExperimentSpec s = engine.validate(spec(host(1, 2, 1), "static", 10,
                List.of(dom0(2), cpuLoop("VM1", 1, 1)), List.of(pin(0.5, "VM1", 0, 0))), Limits.defaults())
                .normalized();
        String json = JSON.writeValueAsString(s);
        assertThat(json).contains("\"action\":\"pin\"").contains("\"stopWhen\":\"all-complete\"");
        ExperimentSpec back = JSON.readValue(json, ExperimentSpec.class);
        Validation again = engine.validate(back, Limits.defaults());
        assertThat(again.violations()).isEmpty();
        assertThat(JSON.writeValueAsString(again.normalized())).isEqualTo(json);
    }

    @Test
    void upperCaseEnumSpellingsAreAccepted() {
        ExperimentSpec.StopCondition c = JSON.readValue("\"ALL_COMPLETE\"", ExperimentSpec.StopCondition.class);
        assertThat(c).isEqualTo(ExperimentSpec.StopCondition.ALL_COMPLETE);
    }
}
