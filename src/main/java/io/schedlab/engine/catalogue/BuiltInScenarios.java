package io.schedlab.engine.catalogue;


import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The five published experiments E1..E5 and the validation cases the model can express (V1..V7; the
 * catalogue, {@link ValidationCatalogue}, lists the rest) as built-in sweeps. Each
 * mirrors the set-up of its source (seeds 000, 001, 004 and the E3/E4 set-ups); {@code quick} scales
 * the work down (E2 to 1/10, E5 to half its jobs and link; see each scenario) and uses one repeat, for tests and a first look. Published numbers are
 * quoted from the seed posts.
 */
public final class BuiltInScenarios {

    /** Ids in order. */
    public static final List<String> IDS = List.of("E1", "E2", "E3", "E4", "E5", "V1", "V2", "V3", "V4", "V5", "V6", "V7");

    private BuiltInScenarios() {
    }

    public static List<Scenario> all(boolean quick) {
        return IDS.stream().map(id -> byId(id, quick).orElseThrow()).toList();
    }

    public static Optional<Scenario> byId(String id, boolean quick) {
        return switch (id.toUpperCase(Locale.ROOT)) {
            case "E1" -> Optional.of(E1Overhead.build(quick));
            case "E2" -> Optional.of(E2Rebalance.build(quick));
            case "E3" -> Optional.of(E3NumaAffinity.build(quick));
            case "E4" -> Optional.of(E4PauseLoopExiting.build(quick));
            case "E5" -> Optional.of(E5RunqueuePerCore.build(quick));
            case "V1" -> Optional.of(V1CreditMigrationBoost.build(quick));
            case "V2" -> Optional.of(V2NumaPlacement.build(quick));
            case "V3" -> Optional.of(V3CreditRatelimit.build(quick));
            case "V4" -> Optional.of(V4XenPauseLoopExiting.build(quick));
            case "V5" -> Optional.of(V5CriticalSectionBoost.build(quick));
            case "V6" -> Optional.of(V6EevdfPreemptShort.build(quick));
            case "V7" -> Optional.of(V7EevdfVhostKworker.build(quick));
            default -> Optional.empty();
        };
    }
}
