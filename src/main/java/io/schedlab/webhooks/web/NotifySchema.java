package io.schedlab.webhooks.web;

import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import java.util.List;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code notify} in the experiment and sweep request bodies (the engine's records do not hold it: the
 * service takes it out before they are read), typed by the {@value #SCHEMA} component.
 */
@Configuration(proxyBeanMethods = false)
class NotifySchema {

    static final String SCHEMA = "NotifyTarget";

    @Bean
    OpenApiCustomizer notifyProperty() {
        return api -> {
            Schema<Object> target = new Schema<>();
            target.type("object").addType("object");
            target.description("Where to post a signed CloudEvents event (CompletionEvent) once the experiment or"
                    + " sweep has finished (SUCCEEDED, FAILED or CANCELLED); delivered at least once, retried with"
                    + " exponential backoff; see its delivery log");
            target.addProperty("url", new StringSchema().maxLength(2048).description("http or https URL whose host is"
                    + " in schedlab.webhooks.allowed-hosts (none by default: 422 naming /notify/url); no user"
                    + " information; redirects are not followed"));
            target.required(List.of("url"));
            api.getComponents().addSchemas(SCHEMA, target);
            for (String body : List.of("ExperimentSpec", "SweepDefinition")) {
                Schema<?> schema = api.getComponents().getSchemas().get(body);
                if (schema != null && schema.getProperties() != null) {
                    schema.getProperties().put("notify", new Schema<>().$ref("#/components/schemas/" + SCHEMA)
                            .description("optional: where to post an event once it has finished; in a sweep, on the"
                                    + " sweep (its base may not have one)"));
                }
            }
        };
    }
}
