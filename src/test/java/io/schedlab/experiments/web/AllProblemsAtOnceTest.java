package io.schedlab.experiments.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A body's problems come in one answer: wrongly typed values and constraint violations together,
 * each with its JSON pointer; malformed JSON names its line and column; no message shows the
 * JSON library's internals.
 */
@WebMvcTest
class AllProblemsAtOnceTest extends RealValidatorSlice {

    /** What a message must never contain: the parser's source marker, library class or package names. */
    private static final Pattern INTERNALS = Pattern.compile(
            "Source:|REDACTED|StreamReadFeature|tools\\.jackson|com\\.fasterxml|java\\.(lang|util)\\.|Exception|`");

    private final JsonMapper json = JsonMapper.builder().build();

    private JsonNode validate(String body, int status) throws Exception {
        MockHttpServletResponse response = mvc.perform(post("/api/v1/experiments:validate")
                .contentType(MediaType.APPLICATION_JSON).content(body)).andReturn().getResponse();
        assertThat(response.getStatus()).as(response.getContentAsString()).isEqualTo(status);
        return json.readTree(response.getContentAsString());
    }

    private static List<String> pointers(JsonNode problem) {
        List<String> out = new ArrayList<>();
        problem.path("errors").forEach(e -> out.add(e.path("pointer").asString()));
        return out;
    }

    @Test
    void wrongTypesAndConstraintViolationsAreAnsweredTogether() throws Exception {
        String body = ExperimentValidationApiTest.seed001()
                .replace("\"seed\": 1", "\"seed\": \"one\"")                      // wrong type
                .replace("\"vcpus\": 1, \"placement\": [1]", "\"vcpus\": true, \"placement\": [1]") // wrong type, VM1
                .replace("\"placement\": [0, 1]", "\"placement\": [0, 5]")        // no pCPU 5
                .replace("\"pcpus\": [0]", "\"pcpus\": [0, \"x\"]");             // wrong type in an array
        JsonNode problem = validate(body, 400);
        assertThat(problem.path("type").asString()).isEqualTo("https://schedlab.io/problems/malformed-request");
        assertThat(pointers(problem)).contains("/seed", "/vms/1/vcpus", "/timeline/0/pcpus/1", "/vms/0/placement/1");
        assertThat(pointers(problem)).doesNotHaveDuplicates();
        assertThat(problem.path("detail").asString()).startsWith(problem.path("errors").size() + " problems");
        assertThat(problem.at("/errors").findValuesAsString("message")).anySatisfy(m -> assertThat(m).contains("no pCPU 5"));
    }

    @Test
    void oneWrongTypeAloneIsOneProblem() throws Exception {
        JsonNode problem = validate(ExperimentValidationApiTest.seed001().replace("\"seed\": 1", "\"seed\": \"one\""), 400);
        assertThat(pointers(problem)).containsExactly("/seed");
    }

    @Test
    void malformedJsonNamesLineAndColumn() throws Exception {
        JsonNode problem = validate("{\n  \"name\": \"x\",\n  \"seed\": 1,,\n}", 400);
        assertThat(problem.path("detail").asString()).contains("line 3, column");
    }

    @Test
    void noMessageShowsLibraryInternals() throws Exception {
        String seed = ExperimentValidationApiTest.seed001();
        List<String> bodies = List.of("{", "{\"name\": \"x\",}", "[1, 2]", "\"text\"", "{\"name\": \"a\"} trailing",
                "{\"name\": \"a\", \"name\": \"b\"}", "{\"seed\": 1e999999}", "{\"seed\": 99999999999999999999}",
                "{\"vms\": {}}", "{\"vms\": [1]}", "{\"stopWhen\": \"never\"}", "{\"host\": []}", "{\"unknown\": 1}",
                "{\"durationSeconds\": \"long\"}", "{\"labels\": [\"a\"]}", "{\"name\": \"\\u00\"}", "nul",
                seed.replace("\"vcpus\": 2", "\"vcpus\": 2.5"), seed.replace("\"static\"", "{\"x\": 1}"),
                seed.replace("\"atSeconds\": 60", "\"atSeconds\": [60]"));
        for (String body : bodies) {
            MockHttpServletResponse response = mvc.perform(post("/api/v1/experiments:validate")
                    .contentType(MediaType.APPLICATION_JSON).content(body)).andReturn().getResponse();
            assertThat(response.getStatus()).as(body).isBetween(400, 422);
            JsonNode problem = json.readTree(response.getContentAsString());
            List<String> messages = new ArrayList<>(problem.findValuesAsString("message"));
            messages.add(problem.path("detail").asString());
            assertThat(messages).as(body).allSatisfy(m -> assertThat(m).doesNotContainPattern(INTERNALS));
        }
    }
}
