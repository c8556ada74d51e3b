package io.schedlab.engine.output;

/** The engine version recorded with every result; bump when results of the same input change. */
public final class EngineVersion {
    /** Read through {@code Engine.VERSION} by callers of the engine. */
    public static final String VERSION = "0.5.0";

    private EngineVersion() {
    }
}
