package io.schedlab.engine.spec;

import io.schedlab.engine.registry.DescriptorCapability;
import java.util.List;

/** Optional capability: a policy's own rules over a whole experiment that parameter bounds cannot express. */
@FunctionalInterface
public interface SpecRules extends DescriptorCapability {

    /**
     * The violations of an experiment that schedules with this policy; {@code raw} is the submitted spec (for
     * its pointers), {@code normalized} the same with every default filled in. Empty when it is fine.
     */
    List<Violation> violations(ExperimentSpec raw, ExperimentSpec normalized);
}
