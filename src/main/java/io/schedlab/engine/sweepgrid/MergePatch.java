package io.schedlab.engine.sweepgrid;

import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON Merge Patch, RFC 7396 section 2 ("MergePatch(Target, Patch)"): an object patch merges
 * member by member, a null member removes it, anything else replaces the target.
 */
final class MergePatch {

    private MergePatch() {
    }

    /** The target with the patch applied; {@code target} is not changed. */
    static JsonNode apply(JsonNode target, JsonNode patch) {
        if (patch == null || !patch.isObject()) {
            return patch == null ? target : patch.deepCopy();
        }
        ObjectNode result = target != null && target.isObject() ? ((ObjectNode) target).deepCopy()
                : ((ObjectNode) patch).objectNode();
        for (Map.Entry<String, JsonNode> member : patch.properties()) {
            if (member.getValue().isNull()) {
                result.remove(member.getKey());
            } else {
                result.set(member.getKey(), apply(result.get(member.getKey()), member.getValue()));
            }
        }
        return result;
    }
}
