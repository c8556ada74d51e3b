package io.schedlab.web;

/** A query or path parameter with a value the endpoint cannot use (400, naming the parameter). */
public class BadParameterException extends RuntimeException {
    private final String parameter;
    private final String reason;

    public BadParameterException(String parameter, String reason) {
        super("parameter '" + parameter + "': " + reason);
        this.parameter = parameter;
        this.reason = reason;
    }

    public String parameter() {
        return parameter;
    }

    public String reason() {
        return reason;
    }
}
