package io.schedlab.contract.responses;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The check every test's answers go through finds what departs from openapi.yaml, and only that. */
class OpenApiResponseValidatorTest {

    private static final String ID = "0b7a0a51-7a4a-4bd5-9cf3-4bd4b3d1a8c1";
    private final OpenApiResponseValidator contract = OpenApiResponseValidator.forContractFile();

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String experiment(String extra) {
        return "{\"id\": \"" + ID + "\", \"name\": \"x\", \"labels\": {}, \"policy\": \"credit\", \"status\": \"QUEUED\","
                + " \"progress\": 0.0, \"simulatedNanos\": 0, \"createdAt\": \"2026-12-01T00:00:00Z\","
                + " \"cancelRequested\": false, \"engineVersion\": \"0.5.0\"" + extra + "}";
    }

    @Test
    void aConformingAnswerHasNoViolation() {
        assertThat(contract.validate("GET", "/api/v1/experiments/" + ID, 200, "application/json",
                bytes(experiment("")))).isEmpty();
    }

    @Test
    void nullWhereTheSchemaDoesNotAllowItIsNamedByOperationStatusAndPointer() {
        List<ResponseViolation> found = contract.validate("GET", "/api/v1/experiments/" + ID, 200,
                "application/json;charset=UTF-8", bytes(experiment(", \"startedAt\": null")));
        assertThat(found).singleElement().satisfies(v -> {
            assertThat(v.operation()).contains("getExperiment").contains("GET /api/v1/experiments/{id}");
            assertThat(v.status()).isEqualTo(200);
            assertThat(v.pointer()).isEqualTo("/startedAt");
            assertThat(v.toString()).contains("null");
        });
    }

    @Test
    void anEnumValueOutsideTheContractIsAViolation() {
        assertThat(contract.validate("GET", "/api/v1/experiments/" + ID, 200, "application/json",
                bytes(experiment("").replace("QUEUED", "PAUSED")))).extracting(ResponseViolation::pointer)
                .containsExactly("/status");
    }

    @Test
    void anUndeclaredStatusOrMediaTypeIsAViolation() {
        assertThat(contract.validate("GET", "/api/v1/experiments/" + ID, 418, "application/json", bytes("{}")))
                .singleElement().satisfies(v -> assertThat(v.message()).contains("418 is not declared"));
        assertThat(contract.validate("GET", "/api/v1/experiments/" + ID, 200, "text/xml", bytes("<x/>")))
                .singleElement().satisfies(v -> assertThat(v.message()).contains("text/xml"));
    }

    @Test
    void aLiteralPathWinsOverATemplateAndPathsOutsideTheContractAreNotChecked() {
        String validation = "{\"valid\": true, \"normalized\": {\"name\": 5}}";
        assertThat(contract.validate("POST", "/api/v1/experiments:validate", 200, "application/json", bytes(validation)))
                .extracting(ResponseViolation::pointer).containsExactly("/normalized/name");
        assertThat(contract.validate("GET", "/actuator/health", 200, "application/json", bytes("{\"status\": null}")))
                .isEmpty();
    }
}
