package io.schedlab.experiments;

/** The {@link ExperimentAccess} of the caller being served (provided by the web edge). */
@FunctionalInterface
public interface ExperimentAccessProvider {

    /** Everyone sees everything (no API keys). */
    ExperimentAccessProvider OPEN = () -> ExperimentAccess.OPEN;

    /** The current caller's access; {@link ExperimentAccess#OPEN} outside a request. */
    ExperimentAccess current();
}
