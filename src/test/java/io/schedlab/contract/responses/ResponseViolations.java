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

    /** Everything recorded so far, and forget it. */
    public static synchronized List<ResponseViolation> drain() {
        List<ResponseViolation> out = List.copyOf(recorded);
        recorded.clear();
        return out;
    }
}
