package io.schedlab.webhooks;

import io.schedlab.engine.spec.Violation;
import io.schedlab.experiments.NotifyTargets;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;

/**
 * The {@code notify} object of a submission: {@code {"url": "https://host/path"}}, an http or https
 * URL of at most {@value #MAX_URL_LENGTH} characters, without user information, whose host is in
 * {@code schedlab.webhooks.allowed-hosts}. A checked one is recorded as a WAITING delivery.
 */
@Component
class WebhookTargets implements NotifyTargets {

    static final int MAX_URL_LENGTH = 2048;
    private static final String URL = "url";
    private static final String AT = "/notify";
    private static final String AT_URL = AT + "/" + URL;

    private final WebhooksProperties properties;
    private final DeliveryStore store;

    WebhookTargets(WebhooksProperties properties, DeliveryStore store) {
        this.properties = properties;
        this.store = store;
    }

    @Override
    public List<Violation> check(JsonNode notify) {
        if (notify == null || !notify.isObject()) {
            return List.of(new Violation(AT, "expected an object: {\"url\": \"https://...\"}"));
        }
        List<Violation> out = new ArrayList<>();
        for (String name : notify.propertyNames()) {
            if (!URL.equals(name)) {
                out.add(new Violation(AT + "/" + name.replace("~", "~0").replace("/", "~1"),
                        "unknown field '" + name + "'; known fields: [url]"));
            }
        }
        JsonNode url = notify.get(URL);
        if (url == null || !url.isString()) {
            out.add(new Violation(AT_URL, "required: the http or https URL to post the finished event to"));
            return out;
        }
        String problem = urlProblem(url.asString());
        if (problem != null) {
            out.add(new Violation(AT_URL, problem));
        }
        return out;
    }

    /** What is wrong with a notify URL, or null when it may be used. */
    private String urlProblem(String text) {
        if (text.length() > MAX_URL_LENGTH) {
            return "at most " + MAX_URL_LENGTH + " characters";
        }
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            return "not a URL";
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return "the scheme must be http or https";
        }
        if (uri.getHost() == null) {
            return "the URL names no host";
        }
        if (uri.getRawUserInfo() != null) {
            return "the URL must not carry user information";
        }
        if (!properties.allows(uri.getHost())) {
            return "host '" + uri.getHost() + "' is not allowed (schedlab.webhooks.allowed-hosts)";
        }
        return null;
    }

    @Override
    public void record(String kind, UUID subject, String owner, JsonNode notify) {
        store.insertWaiting(UUID.randomUUID(), kind, subject, owner, notify.get(URL).asString(), Instant.now());
    }
}
