package io.schedlab.web;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.tags.Tag;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Title, version and tags of the served OpenAPI document (the contract itself is the top-level openapi.yaml). */
@Configuration(proxyBeanMethods = false)
public class OpenApiConfiguration {

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
                        new Tag().name("sweeps").description("Grids of experiments with repetitions, and their tables"),
                        new Tag().name("reports").description("HTML report pages of experiments and sweeps"),
                        new Tag().name("scenarios").description("The published experiments E1..E5 as sweeps")));
    }
}
