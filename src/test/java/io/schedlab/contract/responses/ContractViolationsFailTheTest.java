package io.schedlab.contract.responses;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test during which the service sent any answer that departs from openapi.yaml, listing
 * each (operation, status, pointer, message). Registered for every test by JUnit's extension
 * auto-detection (src/test/resources/META-INF/services and junit-platform.properties).
 */
public class ContractViolationsFailTheTest implements BeforeEachCallback, AfterEachCallback {

    @Override
    public void beforeEach(ExtensionContext context) {
        ResponseViolations.drain(); // answers of a previous test's stragglers are not this test's
    }

    @Override
    public void afterEach(ExtensionContext context) {
        List<ResponseViolation> violations = ResponseViolations.drain();
        if (!violations.isEmpty()) {
            throw new AssertionError(violations.size() + " answer(s) departed from openapi.yaml:\n"
                    + violations.stream().distinct().map(v -> "  " + v).collect(Collectors.joining("\n")));
        }
    }
}
