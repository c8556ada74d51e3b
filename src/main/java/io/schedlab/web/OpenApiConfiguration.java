package io.schedlab.web;

import io.schedlab.engine.costs.CostModel;
import io.schedlab.engine.params.ParameterSpec;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Contact;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springdoc.core.customizers.OpenApiCustomizer;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.tags.Tag;
import java.math.BigDecimal;
import java.util.List;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Title, version, tags, the {@code costs} schema and the API-key scheme of the served OpenAPI document (the
 * contract itself is the top-level openapi.yaml): {@code bearerAuth} on every operation, each of which may
 * answer 401 (no or an unknown key) and 403 (the key's role does not allow it) when keys are configured.
 */
@Configuration(proxyBeanMethods = false)
public class OpenApiConfiguration {

    private static final String BEARER = "bearerAuth";
    /** Name of the cost-parameters schema, built from {@link CostModel#parameters()}. */
    static final String COSTS_SCHEMA = "CostsSpec";

    @Bean
    OpenAPI schedLabOpenApi() {
        return new OpenAPI()
                .info(new Info().title("SchedLab API").version("v1")
                        .description("Submit hypervisor vCPU scheduler experiments, follow them, read their results.")
                        .contact(new Contact().name("SchedLab").url("https://schedlab.io"))
                        .license(new License().name("Apache-2.0").url("https://www.apache.org/licenses/LICENSE-2.0")))
                // no key (schedlab.auth.keys-file unset), or a bearer key: both are accepted alternatives
                .security(List.of(new SecurityRequirement(), new SecurityRequirement().addList(BEARER)))
                .tags(List.of(
                        new Tag().name("experiments").description("Submit, validate, list, read and cancel experiments"),
                        new Tag().name("results").description("Result documents and event traces"),
                        new Tag().name("catalog").description("Scheduler policies and workload types the engine knows"),
                        new Tag().name("sweeps").description("Grids of experiments with repetitions, and their tables"),
                        new Tag().name("reports").description("HTML report pages of experiments and sweeps"),
                        new Tag().name("scenarios").description("The published experiments E1..E5 as sweeps")))
                .components(new Components()
                        .addSecuritySchemes(BEARER, new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer")
                                .description("an API key from `schedlab apikey new`, as Authorization: Bearer KEY;"
                                        + " required when schedlab.auth.keys-file is set"))
                        .addResponses("Unauthorized", problem("no API key, or an unknown one (problem type unauthorized)"))
                        .addResponses("Forbidden", problem("the key's role does not allow this, or the key may read the object but not cancel or delete it: only its owner or an admin key may (problem type forbidden)"))
                        .addResponses("DatabaseUnavailable", withRetryAfter("the database cannot be reached; nothing of the request was stored; retry after the Retry-After seconds (problem type database-unavailable)"))
                        .addResponses("NotAcceptable", problem("the Accept header names no media type this operation"
                                + " answers with; application/problem+json alone is taken as accepting the JSON answer"
                                + " (problem type not-acceptable)"))
                        .addResponses("RequestTimeout", problem("the request body was still arriving after"
                                + " schedlab.http.body-timeout; nothing was stored (problem type request-timeout)"))
                        .addResponses("StorageFull", withRetryAfter("the data directory's disk is below schedlab.limits.min-free-disk-mb; nothing was stored; retry after the Retry-After seconds (problem type storage-full)"))
                        .addResponses("TooManyConnections", withRetryAfter("the client holds more connections than"
                                + " schedlab.http.max-connections-per-client (problem type too-many-connections, limit);"
                                + " the connection is closed, retry after the Retry-After seconds on fewer connections")));
    }

    /**
     * Every operation may answer 401 and 403 once keys are on, 503 while the database is away, 406 for an
     * Accept it cannot satisfy, 408 when it takes a body that arrives too slowly ({@link BodyTimeoutFilter}),
     * and 429 too-many-connections ({@link SlowClientGuard}, before the operation
     * runs; an operation with a 429 of its own keeps it); a submission (a POST that stores experiments) 507
     * when the disk is nearly full. Responses are listed success first, then by code (see
     * {@link #successFirst}).
     */
    @Bean
    OpenApiCustomizer standardResponses() {
        return api -> api.getPaths().forEach((name, path) -> path.readOperationsMap().forEach((method, op) -> {
            ApiResponses responses = op.getResponses();
            responses.addApiResponse("401", new ApiResponse().$ref("#/components/responses/Unauthorized"))
                    .addApiResponse("403", new ApiResponse().$ref("#/components/responses/Forbidden"))
                    .addApiResponse("503", new ApiResponse().$ref("#/components/responses/DatabaseUnavailable"));
            if (method == io.swagger.v3.oas.models.PathItem.HttpMethod.POST && submits(name)) {
                responses.addApiResponse("507", new ApiResponse().$ref("#/components/responses/StorageFull"));
            }
            if (op.getRequestBody() != null) {
                responses.addApiResponse("408", new ApiResponse().$ref("#/components/responses/RequestTimeout"));
            }
            if (!responses.containsKey("406")) {
                responses.addApiResponse("406", new ApiResponse().$ref("#/components/responses/NotAcceptable"));
            }
            if (!responses.containsKey("429")) {
                responses.addApiResponse("429", new ApiResponse().$ref("#/components/responses/TooManyConnections"));
            }
            op.setResponses(successFirst(responses));
        }));
    }

    /**
     * The responses ordered 2xx first, then by code: a client generated with openapi-generator's default
     * options sends the first JSON-like media type of the responses as its Accept header, which must be
     * the success body's.
     */
    static ApiResponses successFirst(ApiResponses responses) {
        ApiResponses ordered = new ApiResponses();
        responses.entrySet().stream()
                .sorted(java.util.Comparator.comparing((java.util.Map.Entry<String, ApiResponse> e) -> !e.getKey().startsWith("2"))
                        .thenComparing(java.util.Map.Entry::getKey))
                .forEach(e -> ordered.addApiResponse(e.getKey(), e.getValue()));
        if (responses.getExtensions() != null) {
            ordered.setExtensions(responses.getExtensions());
        }
        return ordered;
    }

    /** The paths whose POST stores experiments: an experiment, a sweep, a scenario run. */
    private static boolean submits(String path) {
        return path.equals("/api/v1/experiments") || path.equals("/api/v1/sweeps") || path.endsWith("/runs");
    }

    /** A problem answer that carries Retry-After. */
    private static ApiResponse withRetryAfter(String description) {
        return problem(description).addHeaderObject("Retry-After", new io.swagger.v3.oas.models.headers.Header()
                .description("seconds to wait before retrying").schema(new io.swagger.v3.oas.models.media.IntegerSchema()));
    }

    private static ApiResponse problem(String description) {
        return new ApiResponse().description(description).content(new Content().addMediaType(ApiErrors.PROBLEM_JSON,
                new MediaType().schema(new Schema<>().$ref("#/components/schemas/Problem"))));
    }

    /** {@code ExperimentSpec.costs} typed by the cost model's parameters (the record holds it as a map). */
    @Bean
    OpenApiCustomizer costsSchema() {
        return openApi -> {
            Schema<Object> costs = new Schema<>();
            costs.type("object").addType("object");
            costs.description("Scheduler and hardware cost parameters; absent ones take their default.");
            for (ParameterSpec p : CostModel.parameters()) {
                Schema<Object> property = new Schema<>();
                String type = p.type() == ParameterSpec.Type.INTEGER ? "integer" : "number";
                property.type(type).addType(type);
                property.description(p.description() + " Unit: " + p.unit() + ".");
                property.setDefault(p.defaultValue());
                property.minimum(BigDecimal.valueOf(p.min())).maximum(BigDecimal.valueOf(p.max()));
                costs.addProperty(p.name(), property);
            }
            openApi.getComponents().addSchemas(COSTS_SCHEMA, costs);
            Schema<?> spec = openApi.getComponents().getSchemas().get("ExperimentSpec");
            if (spec != null && spec.getProperties() != null) {
                spec.getProperties().put("costs", new Schema<>().$ref("#/components/schemas/" + COSTS_SCHEMA));
            }
        };
    }
}
