package io.schedlab.contract.responses;

import java.util.ArrayList;
import java.util.List;

/**
 * The violations recorded by {@link ContractCheckingFilter} since the last {@link #drain()}: the
 * JUnit extension {@link ContractViolationsFailTheTest} drains it after each test and fails the test
 * when it is not empty (tests in a JVM run one at a time).
 */
public final class ResponseViolations {

    private static final List<ResponseViolation> recorded = new ArrayList<>();

    private ResponseViolations() {
    }

    static synchronized void record(List<ResponseViolation> violations) {
        recorded.addAll(violations);
    }

    /** The failure naming everything recorded so far, if anything was; forgets it. */
    static java.util.Optional<AssertionError> drainAsFailure() {
        List<ResponseViolation> violations = drain();
        return violations.isEmpty() ? java.util.Optional.empty()
                : java.util.Optional.of(new AssertionError(violations.size() + " answer(s) departed from openapi.yaml:\n"
                        + violations.stream().distinct().map(v -> "  " + v)
                                .collect(java.util.stream.Collectors.joining("\n"))));
    }

    /** Everything recorded so far, and forget it. */
    public static synchronized List<ResponseViolation> drain() {
        List<ResponseViolation> out = List.copyOf(recorded);
        recorded.clear();
        return out;
    }
}
