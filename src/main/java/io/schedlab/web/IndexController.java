package io.schedlab.web;

import io.schedlab.engine.Engine;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /}: a minimal JSON index of where to go, so the root is not a 404. Outside the API
 * contract (springdoc documents {@code /api/**} only).
 */
@RestController
class IndexController {

    /** The index: name, engine version and links to the API, its contract and the probes. */
    record IndexResponse(String name, String description, String engineVersion, Map<String, String> links) {
    }

    @GetMapping(path = "/", produces = MediaType.APPLICATION_JSON_VALUE)
    IndexResponse index() {
        Map<String, String> links = new LinkedHashMap<>();
        links.put("experiments", "/api/v1/experiments");
        links.put("schedulers", "/api/v1/schedulers");
        links.put("workloads", "/api/v1/workloads");
        links.put("openapi", "/v3/api-docs");
        links.put("swaggerUi", "/swagger-ui.html");
        links.put("health", "/actuator/health");
        links.put("metrics", "/actuator/prometheus");
        return new IndexResponse("SchedLab", "Scheduling-as-a-service: a deterministic vCPU scheduler simulator",
                Engine.VERSION, links);
    }
}
