package io.schedlab.engine.catalogue;

import io.schedlab.engine.Engine;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.Validation;
import io.schedlab.engine.knobs.KnobSet;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs a scenario experiment on the engine: validate (which normalizes), run, and return the result
 * document as a JSON tree. A run with the trace on is audited: every switch-in is checked by an
 * {@link AffinityAudit} and the outcome added under {@link #AUDIT_FIELD}. A knob set other than the
 * defaults fills its values into each experiment first ({@link KnobSet#apply}).
 */
final class EngineExecutor implements ScenarioRunner.Executor {

    static final String AUDIT_FIELD = "affinityAudit";

    private final Engine engine;
    private final Limits limits;
    private final KnobSet knobs;
    private final JsonMapper mapper = JsonMapper.builder().build();

    EngineExecutor(Engine engine, Limits limits, KnobSet knobs) {
        this.engine = engine;
        this.limits = limits;
        this.knobs = knobs;
    }

    @Override
    public JsonNode run(ExperimentSpec raw) {
        Validation v = engine.validate(knobs.apply(raw), limits);
        if (!v.valid()) {
            throw new IllegalArgumentException("invalid spec: " + v.violations().stream()
                    .map(x -> x.pointer() + " " + x.message()).collect(Collectors.joining("; ")));
        }
        ExperimentSpec normalized = v.normalized();
        if (normalized.trace() == null || !Boolean.TRUE.equals(normalized.trace().enabled())) {
            return mapper.valueToTree(engine.run(normalized, limits, RunControl.NONE));
        }
        AffinityAudit audit = new AffinityAudit(normalized);
        ResultDocument doc = engine.run(normalized, limits, RunControl.tracingTo(audit));
        ObjectNode tree = (ObjectNode) mapper.valueToTree(doc);
        ObjectNode result = tree.putObject(AUDIT_FIELD);
        result.put("checked", audit.checked());
        result.put("violations", audit.violations());
        audit.examples().forEach(result.putArray("examples")::add);
        return tree;
    }
}
