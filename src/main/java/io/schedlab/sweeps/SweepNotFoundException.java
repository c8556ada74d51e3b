package io.schedlab.sweeps;

import java.util.UUID;

/** No sweep has this id. */
public class SweepNotFoundException extends RuntimeException {
    public SweepNotFoundException(UUID id) {
        super("sweep " + id + " does not exist");
    }
}
