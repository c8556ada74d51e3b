package io.schedlab.experiments.web;

import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import java.util.List;
import java.util.Map;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The payload of the progress stream's events as a component ({@link ExperimentStatusEvent}), referenced from
 * the text/event-stream media type as {@code x-itemSchema}: OpenAPI 3.1 has no field for the schema of one
 * streamed item (3.2 names it {@code itemSchema}), so the extension carries it where generators and linters
 * leave it alone and a client can still type the events it parses.
 */
@Configuration(proxyBeanMethods = false)
class StatusEventSchema {

    static final String ITEM_SCHEMA = "x-itemSchema";
    private static final String REF = "#/components/schemas/" + ExperimentStatusEvent.SCHEMA;

    @Bean
    OpenApiCustomizer statusEventItems() {
        return api -> {
            Schema<Object> event = new Schema<>();
            event.addType("object");
            event.description("One server-sent event of streamExperimentEvents (the text/event-stream's"
                    + " x-itemSchema): its event and id lines as given, its data line parsed as JSON");
            event.addProperty("event", new StringSchema()._enum(List.of(ExperimentStatusEvent.STATUS))
                    .description("The event name; status is the only one."));
            event.addProperty("id", new StringSchema().description("The event id: the status, progress (0..1) and"
                    + " simulated seconds that make this change, as STATUS/PROGRESS/SECONDS (e.g."
                    + " RUNNING/0.5/12.0); a key, not a number."));
            event.addProperty("data", new Schema<>().$ref("#/components/schemas/ExperimentResponse")
                    .description("The experiment as getExperiment answers it (durations in ns)."));
            event.required(List.of("event", "id", "data"));
            api.getComponents().addSchemas(ExperimentStatusEvent.SCHEMA, event);
            var path = api.getPaths().get("/api/v1/experiments/{id}/events");
            if (path == null || path.getGet() == null) {
                return;
            }
            Content content = path.getGet().getResponses().get("200").getContent();
            MediaType stream = content.get(org.springframework.http.MediaType.TEXT_EVENT_STREAM_VALUE);
            if (stream != null) {
                stream.addExtension(ITEM_SCHEMA, Map.of("$ref", REF));
            }
        };
    }
}
