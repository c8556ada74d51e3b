package io.schedlab.engine;

import io.schedlab.engine.builtins.BuiltIns;
import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.output.EngineVersion;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.sim.ResultBuilder;
import io.schedlab.engine.sim.Simulator;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.SpecValidator;
import io.schedlab.engine.spec.Violation;
import java.util.stream.Collectors;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.run.RunCancelledException;
import io.schedlab.engine.run.RunLimitExceededException;

/**
 * The engine's one entry point: validate and normalize an experiment, then simulate it.
 * Plain Java, no framework: usable as a library, from the CLI and from the service.
 */
public final class Engine {

    /** Engine version recorded with every result ({@link EngineVersion}: bump it when results of the same input change). */
    public static final String VERSION = EngineVersion.VERSION;

    private final Registry registry;
    private final boolean selfCheck;

    public Engine(Registry registry) {
        this(registry, false);
    }

    private Engine(Registry registry, boolean selfCheck) {
        this.registry = registry;
        this.selfCheck = selfCheck;
    }

    /** An engine with every built-in policy and workload. */
    public static Engine standard() {
        return new Engine(BuiltIns.registry());
    }

    /** The same engine with invariant self-checks after every event (slower; for tests). */
    public Engine withSelfCheck() {
        return new Engine(registry, true);
    }

    public Registry registry() {
        return registry;
    }

    /** Full validation against the registry and limits; never throws for bad input. */
    public Validation validate(ExperimentSpec raw, Limits limits) {
        SpecValidator.Result r = new SpecValidator(registry).validate(raw, limits);
        return new Validation(r.normalized(), r.violations());
    }

    /**
     * Simulate a normalized spec. Deterministic: same spec (incl. seed) gives an equal result
     * document (except the wall-time fields). Throws {@link RunCancelledException} or
     * {@link RunLimitExceededException}, each carrying the partial result up to the stop; an invalid spec gives IllegalArgumentException listing the violations.
     */
    public ResultDocument run(ExperimentSpec normalized, Limits limits, RunControl control) {
        Validation v = validate(normalized, limits);
        if (!v.valid()) {
            throw new IllegalArgumentException("invalid experiment: " + v.violations().stream()
                    .map(Violation::toString).collect(Collectors.joining("; ")));
        }
        long wallStart = System.nanoTime(); // the only wall-clock reads: they feed summary.wallNanos only
        Simulator sim = new Simulator(v.normalized(), registry, limits, control == null ? RunControl.NONE : control);
        if (selfCheck) {
            sim.withSelfCheck();
        }
        try {
            sim.run();
        } catch (RunCancelledException e) {
            sim.finishStopped();
            throw new RunCancelledException(sim.now(), ResultBuilder.build(sim, System.nanoTime() - wallStart,
                    ResultDocument.STOP_STOPPED));
        } catch (RunLimitExceededException e) {
            sim.finishStopped();
            throw new RunLimitExceededException(e.getMessage(), ResultBuilder.build(sim,
                    System.nanoTime() - wallStart, ResultDocument.STOP_EVENT_LIMIT));
        }
        return ResultBuilder.build(sim, System.nanoTime() - wallStart);
    }
}
