package io.schedlab.engine.workloads;

import io.schedlab.engine.params.InvalidParameterException;

/**
 * The {@code json} parameter of an rt-app workload holds something the model cannot run: names the exact key by
 * its JSON pointer under the parameter ({@code json/tasks/thread0/phases/p1/mem}) when the document came as an
 * object, or the parameter itself with the pointer in the message when it came as a string.
 */
public final class RtAppException extends InvalidParameterException {

    private final String documentPointer;

    RtAppException(String documentPointer, boolean pointInto, String message) {
        super(pointInto ? "json" + documentPointer : "json",
                pointInto || documentPointer.isEmpty() ? message : "at " + documentPointer + ": " + message);
        this.documentPointer = documentPointer;
    }

    /** The JSON pointer of the offending key inside the rt-app document ("" = the document itself). */
    public String documentPointer() {
        return documentPointer;
    }
}
