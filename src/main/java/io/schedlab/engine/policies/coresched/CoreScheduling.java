package io.schedlab.engine.policies.coresched;

import io.schedlab.engine.policies.SchedulerPolicy;
import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.spec.SpecRules;
import java.util.ArrayList;
import java.util.List;

/** Entry points for the Xen policies that offer core scheduling (credit, credit2): parameter, wrapper, spec rules. */
public final class CoreScheduling {
    private CoreScheduling() {
    }

    /** {@code specs} followed by {@code schedGran}. */
    public static List<ParameterSpec> withGranularityParameter(List<ParameterSpec> specs) {
        List<ParameterSpec> all = new ArrayList<>(specs);
        all.add(SchedGranularity.parameter());
        return List.copyOf(all);
    }

    /** The policy itself at cpu granularity, else the unit scheduler around it. */
    public static SchedulerPolicy wrap(Params p, SchedulerPolicy inner) {
        SchedGranularity g = SchedGranularity.parse(p.getString(SchedGranularity.PARAM));
        return g == SchedGranularity.CPU ? inner : new UnitScheduler(inner, g);
    }

    /** Spec rules of core scheduling that parameter bounds cannot express (see {@link CoreSchedulingRules}). */
    public static SpecRules specRules() {
        return (raw, normalized) -> CoreSchedulingRules.violations(normalized);
    }
}
