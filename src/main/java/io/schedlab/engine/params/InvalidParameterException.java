package io.schedlab.engine.params;

/**
 * Thrown by a descriptor's factory when a parameter passes its type and bounds but its content is
 * wrong (e.g. a malformed inline CSV): names the parameter so the validator can point at it
 * ({@code .../params/<parameter>}); the message says what is wrong and where (e.g. the row).
 */
public class InvalidParameterException extends IllegalArgumentException {

    private final String parameter;

    public InvalidParameterException(String parameter, String message) {
        super(message);
        this.parameter = parameter;
    }

    /** The parameter at fault. */
    public String parameter() {
        return parameter;
    }
}
