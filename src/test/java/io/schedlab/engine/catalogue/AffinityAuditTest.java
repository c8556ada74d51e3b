package io.schedlab.engine.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.Validation;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.TimelineAction;
import java.util.List;
import org.junit.jupiter.api.Test;

class AffinityAuditTest {

    private static final long MS = 1_000_000;

    private static ExperimentSpec scripted(String policy) {
        List<TimelineAction> script = List.of(
                Specs.pin(0.1, "a", 0, List.of(3)),
                Specs.pin(0.2, "b", null, List.of(0, 1)),
                new TimelineAction(0.3, TimelineAction.Kind.UNPIN, "a", 0, null, null, null, null));
        return Specs.withTrace(Specs.experiment("audit", 5, ExperimentSpec.StopCondition.DURATION, 0.5,
                Specs.host(1, 4, 1), Specs.policy(policy), List.of(
                        Specs.vm("a", 2, Specs.workload("cpu-loop", "threads", 2, "workSeconds", 0.0)),
                        Specs.vm("b", 2, Specs.workload("cpu-loop", "threads", 2, "workSeconds", 0.0)),
                        Specs.vm("c", 2, Specs.workload("cpu-loop", "threads", 2, "workSeconds", 0.0))), script),
                1_000_000L);
    }

    @Test
    void aSwitchOutsideTheAffinityInForceIsAViolation() {
        Engine engine = Engine.standard();
        Validation v = engine.validate(scripted("static"), Limits.defaults());
        assertThat(v.violations()).isEmpty();
        AffinityAudit audit = new AffinityAudit(v.normalized());
        audit.record(50 * MS, 3, "switch", "a", 0); // before the pin: all pCPUs allowed
        audit.record(150 * MS, 2, "switch", "a", 0); // pinned to 3: violation
        audit.record(100 * MS, 1, "switch", "a", 0); // at the pin instant: old affinity accepted
        audit.record(150 * MS, 3, "switch", "a", 0);
        audit.record(250 * MS, 2, "switch", "b", 1); // b pinned to 0,1: violation
        audit.record(350 * MS, 2, "switch", "a", 0); // unpinned again
        audit.record(350 * MS, 2, "switch", null, -1); // idle: not checked
        audit.record(350 * MS, 2, "wake", "a", 0); // not a switch-in
        assertThat(audit.checked()).isEqualTo(6);
        assertThat(audit.violations()).isEqualTo(2);
        assertThat(audit.examples()).containsExactly("a.v0 started on pCPU 2 at 150000000 ns",
                "b.v1 started on pCPU 2 at 250000000 ns");
    }

    @Test
    void noRegisteredPolicyViolatesScriptedPins() {
        Engine engine = Engine.standard();
        for (PolicyDescriptor policy : engine.registry().policies()) {
            Validation v = engine.validate(scripted(policy.name()), Limits.defaults());
            if (!v.valid()) {
                // e.g. null: more vCPUs than pCPUs is refused up front.
                continue;
            }
            AffinityAudit audit = new AffinityAudit(v.normalized());
            engine.run(v.normalized(), Limits.defaults(), RunControl.tracingTo(audit));
            assertThat(audit.checked()).as(policy.name()).isGreaterThan(10);
            assertThat(audit.violations()).as(policy.name() + ": " + audit.examples()).isZero();
        }
    }
}
