package io.schedlab.contract.responses;

import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * Fails a jqwik property during which the service sent any answer that departs from openapi.yaml;
 * registered for every property through src/test/resources/META-INF/services.
 */
public class ContractViolationsFailTheProperty implements AroundPropertyHook {

    @Override
    public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context, PropertyExecutor property) {
        ResponseViolations.drain(); // a previous test's stragglers are not this property's
        PropertyExecutionResult result = property.execute();
        return ResponseViolations.drainAsFailure().map(result::mapToFailed).orElse(result);
    }
}
