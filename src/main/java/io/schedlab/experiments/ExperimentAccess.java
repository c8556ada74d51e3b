package io.schedlab.experiments;

import java.util.Objects;

/**
 * Whose experiments a caller may see: {@code owner} is the caller's API key name (stored with
 * what it submits), {@code seesAll} lets it see everyone's (admin and reader keys, and everyone
 * when the service runs without keys). Another owner's experiment is "not found" to a caller
 * that does not see all, so ids of others' work are not even confirmed.
 */
public record ExperimentAccess(String owner, boolean seesAll) {

    /** No API keys configured: no owner, everything visible. */
    public static final ExperimentAccess OPEN = new ExperimentAccess(null, true);

    /** True when this caller may see an experiment owned by {@code rowOwner}. */
    public boolean canSee(String rowOwner) {
        return seesAll || Objects.equals(owner, rowOwner);
    }
}
