package io.schedlab.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import java.nio.charset.StandardCharsets;
import org.springframework.test.web.servlet.MockMvc;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Waits, through GET /api/v1/experiments/{id}, until an experiment has SUCCEEDED (fails on any other end or after 60 s). */
public final class AwaitSuccess {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final long TIMEOUT_NANOS = 60_000_000_000L;

    private AwaitSuccess() {
    }

    /** Returns once experiment {@code id} has SUCCEEDED. */
    public static void of(MockMvc mvc, String id) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT_NANOS;
        while (true) {
            JsonNode e = JSON.readTree(mvc.perform(get("/api/v1/experiments/{id}", id)).andReturn().getResponse()
                    .getContentAsString(StandardCharsets.UTF_8));
            String s = e.path("status").asString();
            if (s.equals("SUCCEEDED")) {
                return;
            }
            assertThat(s).as(e.toString()).isIn("QUEUED", "RUNNING");
            assertThat(System.nanoTime()).as("finished within 60 s: " + e).isLessThan(deadline);
            Thread.sleep(20);
        }
    }
}
