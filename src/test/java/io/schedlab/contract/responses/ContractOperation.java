package io.schedlab.contract.responses;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/** One operation of the contract and the JSON pointers of its declared responses and their schemas. */
record ContractOperation(JsonNode document, String template, Pattern pattern, String method, String operationId) {

    String describe() {
        return operationId + " (" + method.toUpperCase() + " " + template + ")";
    }

    String escapedTemplate() {
        return escape(template);
    }

    /** Pointer to the response declared for the status (exact, then {@code 4XX}-style, then default), $ref followed. */
    Optional<String> responsePointer(int status) {
        return responsePointer(String.valueOf(status), (status / 100) + "XX", "default");
    }

    /** Pointer to the first of the response keys the operation declares, $ref followed. */
    Optional<String> responsePointer(String... keys) {
        String base = "/paths/" + escape(template) + "/" + method + "/responses";
        JsonNode responses = document.at(base);
        for (String key : keys) {
            JsonNode response = responses.path(key);
            if (!response.isMissingNode()) {
                return Optional.of(response.has("$ref") ? localPointer(response.path("$ref").asString())
                        : base + "/" + key);
            }
        }
        return Optional.empty();
    }

    /** Pointer to the schema of the media type in the response, a plain $ref taken as its target. */
    Optional<String> schemaPointer(String responsePointer, String mediaType) {
        JsonNode content = document.at(responsePointer).path("content");
        for (String key : List.of(mediaType, "*/*")) {
            JsonNode schema = content.path(key).path("schema");
            if (content.has(key)) {
                return Optional.of(schema.has("$ref") && schema.size() == 1 ? localPointer(schema.path("$ref").asString())
                        : responsePointer + "/content/" + escape(key) + "/schema");
            }
        }
        return Optional.empty();
    }

    List<String> mediaTypes(String responsePointer) {
        return new ArrayList<>(document.at(responsePointer).path("content").propertyNames());
    }

    private static String localPointer(String ref) {
        if (!ref.startsWith("#")) {
            throw new IllegalStateException("only local references are supported in the contract: " + ref);
        }
        return ref.substring(1);
    }

    private static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }
}
