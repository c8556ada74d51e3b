package io.schedlab.contract.responses;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test during which the service sent any answer that departs from openapi.yaml, listing
 * each (operation, status, pointer, message). Registered for every test by JUnit's extension
 * auto-detection (src/test/resources/META-INF/services and junit-platform.properties); jqwik properties get
 * {@link ContractViolationsFailTheProperty}.
 */
public class ContractViolationsFailTheTest implements BeforeEachCallback, AfterEachCallback {

    @Override
    public void beforeEach(ExtensionContext context) {
        ResponseViolations.drain(); // answers of a previous test's stragglers are not this test's
    }

    @Override
    public void afterEach(ExtensionContext context) {
        java.util.Optional<AssertionError> failure = ResponseViolations.drainAsFailure();
        if (failure.isPresent()) {
            throw failure.get();
        }
    }
}
