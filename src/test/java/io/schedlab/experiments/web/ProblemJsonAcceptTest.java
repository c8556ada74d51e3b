package io.schedlab.experiments.web;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import org.junit.jupiter.api.Test;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.MediaType;

/**
 * A client generated with default options may accept only application/problem+json (the first
 * JSON-like media type of an operation's responses): it gets the JSON success body, and a bad
 * body still gets its problem.
 */
@WebMvcTest
class ProblemJsonAcceptTest extends RealValidatorSlice {

    private static final MediaType PROBLEM_JSON = MediaType.APPLICATION_PROBLEM_JSON;

    @Test
    void validatingAGoodExperimentAnswersTheJsonBody() throws Exception {
        mvc.perform(post("/api/v1/experiments:validate").accept(PROBLEM_JSON).contentType(MediaType.APPLICATION_JSON)
                        .content(ExperimentValidationApiTest.seed001()))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_JSON))
                .andExpect(jsonPath("$.normalized.stopWhen").value("all-complete"));
    }

    @Test
    void validatingABadExperimentAnswers422Problem() throws Exception {
        mvc.perform(post("/api/v1/experiments:validate").accept(PROBLEM_JSON).contentType(MediaType.APPLICATION_JSON)
                        .content(ExperimentValidationApiTest.seed001().replace("\"policy\": \"static\"", "\"policy\": \"cfs-magic\"")))
                .andExpect(status().isUnprocessableContent())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM_JSON))
                .andExpect(jsonPath("$.errors[0].pointer").value("/scheduler/policy"));
    }

    @Test
    void catalogAndListsAnswerJson() throws Exception {
        mvc.perform(get("/api/v1/schedulers").accept(PROBLEM_JSON))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_JSON))
                .andExpect(jsonPath("$[0].name").isString());
        mvc.perform(get("/api/v1/experiments").header("Accept", "application/problem+json;q=0.9"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.items").isArray());
    }

    @Test
    void anAcceptWithoutJsonIsStill406() throws Exception {
        mvc.perform(get("/api/v1/schedulers").accept(MediaType.APPLICATION_XML))
                .andExpect(status().isNotAcceptable())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM_JSON));
    }
}
