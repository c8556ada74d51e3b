package io.schedlab.webhooks.web;

import io.schedlab.access.CallerAccessProvider;
import io.schedlab.experiments.ExperimentService;
import io.schedlab.sweeps.SweepService;
import io.schedlab.web.ApiErrors;
import io.schedlab.web.ProblemSchema;
import io.schedlab.webhooks.DeliveryStore;
import io.schedlab.webhooks.WebhookSecrets;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.responses.ApiResponses;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.UUID;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Lazy;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The delivery logs of experiments and sweeps (readable by whoever may read the experiment or sweep:
 * another submitter's is not found) and the caller's signing secret.
 */
@RestController
@RequestMapping("/api/v1")
@Tag(name = "webhooks", description = "Completion webhooks: delivery logs and the signing secret")
class WebhookController {

    private final ExperimentService experiments;
    private final SweepService sweeps;
    private final DeliveryStore deliveries;
    private final WebhookSecrets secrets;
    private final CallerAccessProvider access;

    /** The store and the secrets are resolved on first use ({@code @Lazy}): web slices hold controllers only. */
    WebhookController(ExperimentService experiments, SweepService sweeps, @Lazy DeliveryStore deliveries,
            @Lazy WebhookSecrets secrets, ObjectProvider<CallerAccessProvider> access) {
        this.experiments = experiments;
        this.sweeps = sweeps;
        this.deliveries = deliveries;
        this.secrets = secrets;
        this.access = access.getIfAvailable(() -> CallerAccessProvider.OPEN);
    }

    @Operation(operationId = "getExperimentDeliveries", description = "The deliveries of the experiment's notify target: state (WAITING until it has finished, SENDING, DELIVERED, GAVE_UP or DROPPED), the event as posted and every attempt with its start, duration, status code and outcome. Readable by whoever may read the experiment.",
            summary = "The completion webhook deliveries of an experiment, with every attempt (time, status code, outcome)")
    @ApiResponses({
        @ApiResponse(responseCode = "200", description = "the delivery log (empty when submitted without notify)", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = DeliveryLogResponse.class))),
        @ApiResponse(responseCode = "400", description = "the id is not a UUID", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "404", description = "no experiment with this id visible to this API key (another submitter's is not found)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @GetMapping(path = "/experiments/{id}/deliveries", produces = MediaType.APPLICATION_JSON_VALUE)
    DeliveryLogResponse experimentDeliveries(@PathVariable("id") UUID id) {
        experiments.get(id); // not found unless the caller may read it
        return log(id);
    }

    @Operation(operationId = "getSweepDeliveries", description = "The deliveries of the sweep's notify target: state (WAITING until every child has finished, SENDING, DELIVERED or GAVE_UP), the event as posted and every attempt with its start, duration, status code and outcome. Readable by whoever may read the sweep.",
            summary = "The completion webhook deliveries of a sweep, with every attempt (time, status code, outcome)")
    @ApiResponses({
        @ApiResponse(responseCode = "200", description = "the delivery log (empty when submitted without notify)", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = DeliveryLogResponse.class))),
        @ApiResponse(responseCode = "400", description = "the id is not a UUID", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "404", description = "no sweep with this id visible to this API key (another submitter's is not found)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @GetMapping(path = "/sweeps/{id}/deliveries", produces = MediaType.APPLICATION_JSON_VALUE)
    DeliveryLogResponse sweepDeliveries(@PathVariable("id") UUID id) {
        sweeps.definition(id); // not found unless the caller may read it
        return log(id);
    }

    private DeliveryLogResponse log(UUID subject) {
        return DeliveryLogResponse.of(subject, deliveries.forSubject(subject), deliveries::attempts);
    }

    @Operation(operationId = "getWebhookSecret", description = "The secret whose HMAC-SHA256 signs the events of the caller's submissions (X-SchedLab-Signature: sha256= and the hex HMAC of the body, keyed with the secret's text as UTF-8 bytes). Made on first use; without API keys the service has one secret.",
            summary = "The caller's webhook signing secret (made on first use); without API keys the one secret of the service")
    @ApiResponses({
        @ApiResponse(responseCode = "200", description = "the secret", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = SecretResponse.class)))})
    @GetMapping(path = "/webhooks/secret", produces = MediaType.APPLICATION_JSON_VALUE)
    SecretResponse secret() {
        return SecretResponse.of(secrets.current(access.current().owner()));
    }

    @Operation(operationId = "rotateWebhookSecret", description = "Replaces the caller's secret with a new random one; every attempt from now on, retries of earlier deliveries included, is signed with it.",
            summary = "Replace the caller's webhook signing secret; every attempt from now on, retries included, is signed with the new one")
    @ApiResponses({
        @ApiResponse(responseCode = "200", description = "the new secret", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = SecretResponse.class)))})
    @PostMapping(path = "/webhooks/secret", produces = MediaType.APPLICATION_JSON_VALUE)
    SecretResponse rotate() {
        return SecretResponse.of(secrets.rotate(access.current().owner()));
    }
}
