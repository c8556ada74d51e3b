package io.schedlab.experiments.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Seeded random mutations of the seed 001 experiment (values of the wrong type or out of range,
 * removed and unknown fields, huge numbers, truncated text) against the real validator: every
 * answer is 2xx or a 4xx problem with a SchedLab type URI, never a 5xx.
 */
@WebMvcTest
class NoServerErrorForClientInputTest extends RealValidatorSlice {

    private static final int CASES = 600;

    private final JsonMapper json = JsonMapper.builder().build();
    private final JsonNodeFactory nodes = JsonNodeFactory.instance;

    @Test
    void mutatedExperimentsNeverGiveAServerError() throws Exception {
        String seed = new ClassPathResource("service/seed001-static.json").getContentAsString(StandardCharsets.UTF_8);
        SplittableRandom random = new SplittableRandom(20261130L);
        Map<Integer, Integer> statuses = new TreeMap<>();
        for (int i = 0; i < CASES; i++) {
            String body = i % 5 == 4 ? mutateText(seed, random) : mutateTree(seed, random, 1 + random.nextInt(3));
            String path = random.nextBoolean() ? "/api/v1/experiments" : "/api/v1/experiments:validate";
            MockHttpServletResponse r = mvc.perform(post(path).contentType(MediaType.APPLICATION_JSON)
                    .content(body.getBytes(StandardCharsets.UTF_8))).andReturn().getResponse();
            statuses.merge(r.getStatus(), 1, Integer::sum);
            assertThat(r.getStatus()).as("case %d: %s\n-> %s", i, body, r.getContentAsString()).isLessThan(500);
            if (r.getStatus() >= 400) {
                assertThat(r.getContentType()).startsWith("application/problem+json");
                assertThat(r.getContentAsString()).contains("https://schedlab.io/problems/");
            }
        }
        System.out.println("status counts over " + CASES + " mutated bodies: " + statuses);
        assertThat(statuses.keySet()).contains(400, 422); // the mutations reached both kinds of rejection
    }

    private String mutateTree(String seed, SplittableRandom random, int mutations) {
        JsonNode root = json.readTree(seed);
        for (int m = 0; m < mutations; m++) {
            List<JsonNode> containers = new ArrayList<>();
            collect(root, containers);
            JsonNode target = containers.get(random.nextInt(containers.size()));
            if (target instanceof ObjectNode o) {
                List<String> names = new ArrayList<>(o.propertyNames());
                int op = random.nextInt(4);
                if (op == 0 || names.isEmpty()) {
                    o.set(random.nextBoolean() ? "unexpected" : "params", randomValue(random));
                } else if (op == 1) {
                    o.remove(names.get(random.nextInt(names.size())));
                } else {
                    o.set(names.get(random.nextInt(names.size())), randomValue(random));
                }
            } else if (target instanceof ArrayNode a) {
                if (a.isEmpty() || random.nextBoolean()) {
                    a.add(randomValue(random));
                } else {
                    a.set(random.nextInt(a.size()), randomValue(random));
                }
            }
        }
        return json.writeValueAsString(root);
    }

    private void collect(JsonNode node, List<JsonNode> out) {
        if (node.isContainer()) {
            out.add(node);
            for (JsonNode child : node) {
                collect(child, out);
            }
        }
    }

    private JsonNode randomValue(SplittableRandom random) {
        return switch (random.nextInt(16)) {
            case 0 -> nodes.nullNode();
            case 1 -> nodes.stringNode("x".repeat(random.nextInt(300)));
            case 2 -> nodes.numberNode(-1);
            case 3 -> nodes.numberNode(0);
            case 4 -> nodes.numberNode(Long.MAX_VALUE);
            case 5 -> nodes.numberNode(1e308);
            case 6 -> nodes.numberNode(-0.0);
            case 7 -> nodes.numberNode(2.5);
            case 8 -> nodes.booleanNode(random.nextBoolean());
            case 9 -> nodes.arrayNode();
            case 10 -> nodes.objectNode();
            case 11 -> nodes.numberNode(new java.math.BigInteger("123456789012345678901234567890"));
            case 12 -> {
                ArrayNode many = nodes.arrayNode();
                for (int k = 0; k < 2000; k++) {
                    many.add(k);
                }
                yield many;
            }
            case 13 -> nodes.stringNode(random.nextBoolean() ? "pin" : "all-complete");
            case 14 -> nodes.numberNode(random.nextInt(-5, 300));
            default -> {
                ObjectNode vm = nodes.objectNode();
                vm.put("name", "vm" + random.nextInt(5));
                vm.put("vcpus", random.nextInt(-1, 5000));
                vm.set("workload", nodes.objectNode().put("type", random.nextBoolean() ? "cpu-loop" : "idle"));
                yield vm;
            }
        };
    }

    private static String mutateText(String seed, SplittableRandom random) {
        int at = random.nextInt(seed.length());
        return switch (random.nextInt(3)) {
            case 0 -> seed.substring(0, at);
            case 1 -> seed.substring(0, at) + "{[\"\\u0000:,1e99999".charAt(random.nextInt(17)) + seed.substring(at);
            default -> seed.substring(0, at) + seed.substring(Math.min(seed.length(), at + 1 + random.nextInt(10)));
        };
    }
}
