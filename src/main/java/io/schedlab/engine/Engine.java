package io.schedlab.engine;

import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.result.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;

/**
 * The engine's one entry point: validate and normalize an experiment, then simulate it.
 * Plain Java, no framework: usable as a library, from the CLI and from the service.
 */
public final class Engine {

    /** Engine version recorded with every result; bump when results of the same input change. */
    public static final String VERSION = "0.1.0";

    private final Registry registry;

    public Engine(Registry registry) {
        this.registry = registry;
    }

    /** An engine with every built-in policy and workload. */
    public static Engine standard() {
        return new Engine(Registry.standard());
    }

    public Registry registry() {
        return registry;
    }

    /** Full validation against the registry and limits; never throws for bad input. */
    public Validation validate(ExperimentSpec raw, Limits limits) {
        throw new UnsupportedOperationException("TODO engine-core");
    }

    /**
     * Simulate a normalized spec. Deterministic: same spec (incl. seed) gives an equal result
     * document (except the wall-time fields). Throws {@link RunCancelledException} or
     * {@link RunLimitExceededException}.
     */
    public ResultDocument run(ExperimentSpec normalized, Limits limits, RunControl control) {
        throw new UnsupportedOperationException("TODO engine-core");
    }
}
