package io.schedlab.contract.responses;

/**
 * One way an answer departs from openapi.yaml: the operation (id, method, path template), the
 * status, the JSON pointer into the body ("" for the whole answer) and what is wrong.
 */
public record ResponseViolation(String operation, int status, String pointer, String message) {

    @Override
    public String toString() {
        return operation + " -> " + status + " at '" + pointer + "': " + message;
    }
}
