package io.schedlab.experiments;

import io.schedlab.engine.spec.Violation;
import java.util.List;
import java.util.UUID;
import tools.jackson.databind.JsonNode;

/**
 * A submission's {@code notify} object (where to post when it has finished): checked before anything
 * is stored and recorded in the submission's transaction. Implemented by the webhooks feature.
 */
public interface NotifyTargets {

    /** Refuses every notify object: the service was assembled without webhooks. */
    NotifyTargets NONE = new NotifyTargets() {
        @Override
        public List<Violation> check(JsonNode notify) {
            return List.of(new Violation("/notify", "completion webhooks are not available in this service"));
        }

        @Override
        public void record(String kind, UUID subject, String owner, JsonNode notify) {
            throw new IllegalStateException("completion webhooks are not available in this service");
        }
    };

    /** The problems of a notify object, each with its pointer under {@code /notify}; empty when it may be used. */
    List<Violation> check(JsonNode notify);

    /** Records a checked notify object for {@code subject} ("experiment" or "sweep"), in the caller's transaction. */
    void record(String kind, UUID subject, String owner, JsonNode notify);
}
