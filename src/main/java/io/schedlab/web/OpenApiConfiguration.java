package io.schedlab.web;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springdoc.core.customizers.OpenApiCustomizer;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.tags.Tag;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Title, version, tags and the API-key scheme of the served OpenAPI document (the contract itself is
 * the top-level openapi.yaml): {@code bearerAuth} on every operation, each of which may answer 401
 * (no or an unknown key) and 403 (the key's role does not allow it) when keys are configured.
 */
@Configuration(proxyBeanMethods = false)
public class OpenApiConfiguration {

    private static final String BEARER = "bearerAuth";

    @Bean
    OpenAPI schedLabOpenApi() {
        return new OpenAPI()
                .info(new Info().title("SchedLab API").version("v1")
                        .description("Submit hypervisor vCPU scheduler experiments, follow them, read their results.")
                        .license(new License().name("Apache-2.0")))
                .tags(List.of(
                        new Tag().name("experiments").description("Submit, validate, list, read and cancel experiments"),
                        new Tag().name("results").description("Result documents and event traces"),
                        new Tag().name("catalog").description("Scheduler policies and workload types the engine knows"),
                        new Tag().name("sweeps").description("Grids of experiments with repetitions, and their tables")))
                .components(new Components()
                        .addSecuritySchemes(BEARER, new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer")
                                .description("an API key from `schedlab apikey new`, as Authorization: Bearer KEY;"
                                        + " required when schedlab.auth.keys-file is set"))
                        .addResponses("Unauthorized", problem("no API key, or an unknown one (problem type unauthorized)"))
                        .addResponses("Forbidden", problem("the key's role does not allow this (problem type forbidden)")))
                .addSecurityItem(new SecurityRequirement().addList(BEARER));
    }

    /** Every operation may answer 401 and 403 once keys are on. */
    @Bean
    OpenApiCustomizer authResponses() {
        return api -> api.getPaths().values().forEach(path -> path.readOperations().forEach(op -> op.getResponses()
                .addApiResponse("401", new ApiResponse().$ref("#/components/responses/Unauthorized"))
                .addApiResponse("403", new ApiResponse().$ref("#/components/responses/Forbidden"))));
    }

    private static ApiResponse problem(String description) {
        return new ApiResponse().description(description).content(new Content().addMediaType(ApiErrors.PROBLEM_JSON,
                new MediaType().schema(new Schema<>().$ref("#/components/schemas/Problem"))));
    }
}
