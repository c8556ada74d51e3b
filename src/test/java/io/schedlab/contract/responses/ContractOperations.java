package io.schedlab.contract.responses;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/** The operations of the contract, found by HTTP method and a concrete request path. */
final class ContractOperations {

    private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch", "head", "options");

    private final List<ContractOperation> operations = new ArrayList<>();

    ContractOperations(JsonNode document) {
        JsonNode paths = document.path("paths");
        for (String template : paths.propertyNames()) {
            Pattern pattern = templatePattern(template);
            JsonNode item = paths.path(template);
            for (String method : item.propertyNames()) {
                if (METHODS.contains(method)) {
                    operations.add(new ContractOperation(document, template, pattern, method,
                            item.path(method).path("operationId").asString("")));
                }
            }
        }
        // a literal path wins over a template that also matches it
        operations.sort(Comparator.comparingInt(op -> op.template().split("\\{", -1).length));
    }

    Optional<ContractOperation> find(String method, String path) {
        String m = method.toLowerCase();
        return operations.stream().filter(op -> op.method().equals(m) && op.pattern().matcher(path).matches()).findFirst();
    }

    /** The schema pointer of every JSON answer any operation declares. */
    java.util.Set<String> jsonSchemaPointers() {
        java.util.Set<String> out = new java.util.TreeSet<>();
        for (ContractOperation op : operations) {
            op.document().at("/paths/" + op.escapedTemplate() + "/" + op.method() + "/responses").propertyNames()
                    .forEach(code -> op.responsePointer(code).ifPresent(response -> op.mediaTypes(response).stream()
                            .filter(type -> type.endsWith("json"))
                            .forEach(type -> op.schemaPointer(response, type).ifPresent(out::add))));
        }
        return out;
    }

    /** {@code /api/v1/experiments/{id}} as a pattern matching one path segment per parameter. */
    private static Pattern templatePattern(String template) {
        StringBuilder regex = new StringBuilder();
        int at = 0;
        while (at < template.length()) {
            int open = template.indexOf('{', at);
            if (open < 0) {
                regex.append(Pattern.quote(template.substring(at)));
                break;
            }
            regex.append(Pattern.quote(template.substring(at, open))).append("[^/]+");
            at = template.indexOf('}', open) + 1;
        }
        return Pattern.compile(regex.toString());
    }
}
