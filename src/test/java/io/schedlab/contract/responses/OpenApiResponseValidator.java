package io.schedlab.contract.responses;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.path.PathType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Checks one HTTP answer against the response the contract (openapi.yaml) declares for its
 * operation: the status must be declared, the media type offered, and a JSON body must satisfy
 * the declared schema (OpenAPI 3.1 dialect, networknt json-schema-validator). Requests to paths
 * the contract does not name (actuator, Swagger UI) are not checked.
 */
public final class OpenApiResponseValidator {

    /** Identifier the contract is registered under; never fetched. */
    private static final String DOCUMENT_ID = "https://schedlab.io/contract/openapi.json";
    /** Bodies larger than this are not parsed (a full trace); status and media type are still checked. */
    static final int MAX_CHECKED_BODY_BYTES = 8 * 1024 * 1024;

    private static volatile OpenApiResponseValidator contract;

    private final ContractOperations operations;
    private final SchemaRegistry registry;
    private final Map<String, Schema> schemas = new ConcurrentHashMap<>();
    private final JsonMapper json = JsonMapper.builder().build();

    OpenApiResponseValidator(JsonNode document) {
        this.operations = new ContractOperations(document);
        SchemaRegistryConfig config = SchemaRegistryConfig.builder().pathType(PathType.JSON_POINTER)
                .formatAssertionsEnabled(true).build();
        String text = json.writeValueAsString(document);
        this.registry = SchemaRegistry.withDefaultDialect(Dialects.getOpenApi31(),
                builder -> builder.schemas(Map.of(DOCUMENT_ID, text)).schemaRegistryConfig(config));
    }

    /** The validator for the repository's openapi.yaml, read once per test JVM. */
    public static OpenApiResponseValidator forContractFile() {
        OpenApiResponseValidator loaded = contract;
        if (loaded == null) {
            synchronized (OpenApiResponseValidator.class) {
                if (contract == null) {
                    contract = fromYaml(Path.of("openapi.yaml"));
                    contract.compileEverySchema();
                }
                loaded = contract;
            }
        }
        return loaded;
    }

    /**
     * Compiles the schema of every declared JSON answer now, while the test context starts, so the
     * first answer of each kind is not slowed by it (tests time some answers).
     */
    private void compileEverySchema() {
        operations.jsonSchemaPointers().forEach(pointer -> schemas.computeIfAbsent(pointer, p -> {
            Schema schema = registry.getSchema(SchemaLocation.of(DOCUMENT_ID + "#" + p));
            schema.initializeValidators();
            return schema;
        }));
    }

    static OpenApiResponseValidator fromYaml(Path file) {
        try {
            String yaml = Files.readString(file, StandardCharsets.UTF_8);
            return new OpenApiResponseValidator(YAMLMapper.builder().build().readTree(yaml));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the contract " + file, e);
        }
    }

    /** Every way the answer departs from the contract; empty when it conforms or the path is not in it. */
    public List<ResponseViolation> validate(String method, String path, int status, String contentType, byte[] body) {
        Optional<ContractOperation> found = operations.find(method, path);
        if (found.isEmpty()) {
            return List.of();
        }
        ContractOperation op = found.get();
        List<ResponseViolation> out = new ArrayList<>();
        Optional<String> response = op.responsePointer(status);
        if (response.isEmpty()) {
            out.add(new ResponseViolation(op.describe(), status, "", "status " + status + " is not declared"));
            return out;
        }
        boolean hasBody = body != null && body.length > 0;
        if (!hasBody) {
            return out;
        }
        String mediaType = mediaType(contentType);
        Optional<String> schemaPointer = op.schemaPointer(response.get(), mediaType);
        if (schemaPointer.isEmpty()) {
            out.add(new ResponseViolation(op.describe(), status, "",
                    "media type '" + mediaType + "' is not declared for this status (declared: "
                            + op.mediaTypes(response.get()) + ")"));
            return out;
        }
        if (!isJson(mediaType) || body.length > MAX_CHECKED_BODY_BYTES) {
            return out;
        }
        JsonNode instance;
        try {
            instance = json.readTree(body);
        } catch (JacksonException e) {
            out.add(new ResponseViolation(op.describe(), status, "", "body is not JSON: " + e.getOriginalMessage()));
            return out;
        }
        Schema schema = schemas.computeIfAbsent(schemaPointer.get(),
                pointer -> registry.getSchema(SchemaLocation.of(DOCUMENT_ID + "#" + pointer)));
        for (Error error : schema.validate(instance)) {
            out.add(new ResponseViolation(op.describe() + " " + mediaType, status,
                    error.getInstanceLocation().toString(), error.getMessage()));
        }
        return out;
    }

    private static String mediaType(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return "";
        }
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim().toLowerCase();
    }

    private static boolean isJson(String mediaType) {
        return mediaType.equals("application/json") || mediaType.endsWith("+json");
    }
}
