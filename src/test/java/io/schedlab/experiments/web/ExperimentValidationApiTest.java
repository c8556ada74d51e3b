package io.schedlab.experiments.web;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultActions;

/** Web slice with the real engine validator: each kind of semantic violation is a 422 naming the field. */
@WebMvcTest(properties = {"schedlab.limits.max-pcpus=8", "schedlab.limits.max-duration-seconds=3600"})
class ExperimentValidationApiTest extends RealValidatorSlice {

    static String seed001() throws Exception {
        return new ClassPathResource("service/seed001-static.json").getContentAsString(StandardCharsets.UTF_8);
    }

    private ResultActions submit(String body) throws Exception {
        return mvc.perform(post("/api/v1/experiments").contentType(MediaType.APPLICATION_JSON).content(body));
    }

    private void expect422(String body, String pointer, String messagePart) throws Exception {
        submit(body)
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.type").value("https://schedlab.io/problems/invalid-experiment"))
                .andExpect(jsonPath("$.errors[?(@.pointer == '" + pointer + "')].message", hasItem(containsString(messagePart))));
    }

    @Test
    void theSeed001ExampleIsValidAndNormalized() throws Exception {
        mvc.perform(post("/api/v1/experiments:validate").contentType(MediaType.APPLICATION_JSON).content(seed001()))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.normalized.stopWhen").value("all-complete"))
                .andExpect(jsonPath("$.normalized.host.threadsPerCore").value(1))
                .andExpect(jsonPath("$.normalized.host.cpuNumbering").value("siblings-adjacent"))
                .andExpect(jsonPath("$.normalized.vms[1].weight").value(256))
                .andExpect(jsonPath("$.normalized.vms[1].workload.params.workSeconds").value(96.0))
                .andExpect(jsonPath("$.normalized.timeline[0].action").value("pin"));
    }

    @Test
    void theOpenApiRequestExampleIsAValidExperiment() throws Exception {
        mvc.perform(post("/api/v1/experiments:validate").contentType(MediaType.APPLICATION_JSON)
                        .content(ExperimentController.SEED_001_PIN))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.normalized.timeline[0].atSeconds").value(10.0));
    }

    @Test
    void affinityNamingAMissingPcpuIs422() throws Exception {
        expect422(seed001().replace("\"placement\": [1], \"workload\": { \"type\": \"cpu-loop\"",
                "\"placement\": [1], \"hardAffinity\": [1, 7], \"workload\": { \"type\": \"cpu-loop\""),
                "/vms/1/hardAffinity/1", "no pCPU 7");
        expect422(seed001().replace("\"placement\": [0, 1]", "\"placement\": [0, 5]"), "/vms/0/placement/1", "no pCPU 5");
    }

    @Test
    void moreVcpusThanTheNullSchedulerAllowsIs422() throws Exception {
        expect422(seed001().replace("\"policy\": \"static\"", "\"policy\": \"null\""), "/vms", "one vCPU per pCPU");
    }

    @Test
    void unknownSchedulerAndUnknownParameterAre422() throws Exception {
        expect422(seed001().replace("\"policy\": \"static\"", "\"policy\": \"cfs-magic\""), "/scheduler/policy",
                "unknown policy 'cfs-magic'");
        expect422(seed001().replace("{ \"workSeconds\": 96 }", "{ \"workSeconds\": 96, \"turbo\": true }"),
                "/vms/1/workload/params/turbo", "unknown parameter 'turbo'");
        expect422(seed001().replace("{ \"type\": \"idle\" }", "{ \"type\": \"bitcoin\" }"), "/vms/0/workload/type",
                "unknown workload type");
    }

    @Test
    void timelineNamingAnUnknownVmIs422() throws Exception {
        expect422(seed001().replace("\"vm\": \"VM1\"", "\"vm\": \"VM2\""), "/timeline/0/vm", "unknown VM 'VM2'");
    }

    @Test
    void limitsAreEnforcedFromConfiguration() throws Exception {
        expect422(seed001().replace("\"coresPerSocket\": 2", "\"coresPerSocket\": 16"), "/host", "at most 8 pCPUs");
        expect422(seed001().replace("\"durationSeconds\": 600", "\"durationSeconds\": 7200"), "/durationSeconds", "3600");
    }

    @Test
    void labelRulesAre422() throws Exception {
        String tooMany = "\"labels\": {" + IntStream.range(0, 65).mapToObj(i -> "\"k" + i + "\": \"v\"")
                .collect(Collectors.joining(",")) + "},";
        expect422(seed001().replace("\"seed\": 1,", tooMany + "\"seed\": 1,"), "/labels", "at most");
        expect422(seed001().replace("\"seed\": 1,", "\"labels\": {\"a:b\": \"v\"}, \"seed\": 1,"), "/labels/a:b",
                "label keys");
        expect422(seed001().replace("\"seed\": 1,", "\"labels\": {\"ok\": \"line\\nbreak\"}, \"seed\": 1,"),
                "/labels/ok", "control characters");
        verify(repository, never()).save(any());
    }

    /** 64 labels whose keys and values have {@code total} characters; values are quotes and backslashes (twice as long escaped). */
    static String labelsOfTotalLength(int total) {
        StringBuilder sb = new StringBuilder("\"labels\": {");
        int valueChars = total - 64 * 4;
        for (int i = 0; i < 64; i++) {
            int n = valueChars / 64 + (i < valueChars % 64 ? 1 : 0);
            String value = "\\\"\\\\".repeat(n / 2) + (n % 2 == 1 ? "\\\"" : "");
            sb.append(i == 0 ? "" : ", ").append(String.format("\"k%03d\": \"%s\"", i, value));
        }
        return sb.append("}, ").toString();
    }

    @Test
    void labelsUpToTheTotalLengthBoundAreValidAndOneMoreCharacterIs422() throws Exception {
        mvc.perform(post("/api/v1/experiments:validate").contentType(MediaType.APPLICATION_JSON)
                        .content(seed001().replace("\"seed\": 1,", labelsOfTotalLength(4096) + "\"seed\": 1,")))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.normalized.labels.k063").value("\"\\".repeat(30)));
        expect422(seed001().replace("\"seed\": 1,", labelsOfTotalLength(4097) + "\"seed\": 1,"), "/labels",
                "at most 4096 characters");
    }

    @Test
    void theHostsNumberingIsAcceptedAndAnUnknownOneIs400NamingTheField() throws Exception {
        mvc.perform(post("/api/v1/experiments:validate").contentType(MediaType.APPLICATION_JSON)
                        .content(seed001().replace("\"coresPerSocket\": 2", "\"coresPerSocket\": 2, \"cpuNumbering\": \"cores-first\"")))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.normalized.host.cpuNumbering").value("cores-first"));
        submit(seed001().replace("\"coresPerSocket\": 2", "\"coresPerSocket\": 2, \"cpuNumbering\": \"zigzag\""))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].pointer").value("/host/cpuNumbering"))
                .andExpect(jsonPath("$.errors[0].message", containsString("zigzag")))
                .andExpect(jsonPath("$.errors[0].message", containsString("cores-first")));
    }

    @Test
    void badEnumValueIs400NamingTheField() throws Exception {
        submit(seed001().replace("\"action\": \"pin\"", "\"action\": \"teleport\""))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].pointer").value("/timeline/0/action"))
                .andExpect(jsonPath("$.errors[0].message", containsString("teleport")));
    }
}
