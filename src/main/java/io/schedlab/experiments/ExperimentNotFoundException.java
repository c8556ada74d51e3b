package io.schedlab.experiments;

import java.util.UUID;

/** No experiment has this id. */
public class ExperimentNotFoundException extends RuntimeException {
    public ExperimentNotFoundException(UUID id) {
        super("experiment " + id + " does not exist");
    }
}
