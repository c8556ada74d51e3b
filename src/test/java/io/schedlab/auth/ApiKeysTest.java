package io.schedlab.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The keys file format and the {@code apikey new} command that writes its lines. */
class ApiKeysTest {

    @Test
    void aNewKeysLineFindsItsKeyWithRoleAndName() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = ApiKeyCommand.run(new String[] {"apikey", "new", "--role", "submitter", "--name", "ci-bot"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream()));
        assertThat(code).isZero();
        List<String> printed = out.toString(StandardCharsets.UTF_8).lines().toList();
        String key = printed.get(0).substring("key:  ".length());
        String line = printed.get(1).substring("line: ".length());
        assertThat(line).doesNotContain(key).endsWith(" submitter ci-bot");
        ApiKeys keys = ApiKeys.parse(List.of("# comment", "", line), "test");
        assertThat(keys.find(key)).contains(new ApiKey("ci-bot", ApiKeyRole.SUBMITTER));
        assertThat(keys.find(key + "x")).isEmpty();
        assertThat(keys.find("")).isEmpty();
    }

    @Test
    void twoNewKeysDiffer() {
        ByteArrayOutputStream a = new ByteArrayOutputStream();
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream());
        ApiKeyCommand.run(new String[] {"apikey", "new", "--role", "reader", "--name", "a"}, new PrintStream(a), quiet);
        ApiKeyCommand.run(new String[] {"apikey", "new", "--role", "reader", "--name", "a"}, new PrintStream(b), quiet);
        assertThat(a.toString()).isNotEqualTo(b.toString());
    }

    @Test
    void helpAfterTheCommandPrintsItsUsage() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream());
        assertThat(ApiKeyCommand.run(new String[] {"apikey", "--help"}, new PrintStream(out), quiet)).isZero();
        assertThat(out.toString()).startsWith("usage: schedlab apikey new");
    }

    @Test
    void badCommandLinesAreUsageErrors() {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream());
        assertThat(ApiKeyCommand.run(new String[] {"apikey"}, quiet, quiet)).isEqualTo(2);
        assertThat(ApiKeyCommand.run(new String[] {"apikey", "new", "--role", "root", "--name", "x"}, quiet, quiet))
                .isEqualTo(2);
        assertThat(ApiKeyCommand.run(new String[] {"apikey", "new", "--role", "admin", "--name", "two words"}, quiet,
                quiet)).isEqualTo(2);
        assertThat(ApiKeyCommand.run(new String[] {"apikey", "new", "--role", "admin"}, quiet, quiet)).isEqualTo(2);
    }

    @Test
    void badLinesStopTheStartNamingTheLine() {
        String hash = ApiKeys.sha256Hex("k");
        assertThatThrownBy(() -> ApiKeys.parse(List.of(hash + " reader"), "f")).hasMessageContaining("f line 1");
        assertThatThrownBy(() -> ApiKeys.parse(List.of("", "abc reader n"), "f")).hasMessageContaining("f line 2")
                .hasMessageContaining("SHA-256");
        assertThatThrownBy(() -> ApiKeys.parse(List.of(hash + " root n"), "f")).hasMessageContaining("unknown role");
        assertThatThrownBy(() -> ApiKeys.parse(List.of(hash + " reader n", ApiKeys.sha256Hex("j") + " admin n"), "f"))
                .hasMessageContaining("duplicate");
        assertThatThrownBy(() -> ApiKeys.parse(List.of("# nothing"), "f")).hasMessageContaining("no key");
    }

    @Test
    void rolesAllowMethodsAndVisibility() {
        assertThat(ApiKeyRole.READER.mayUse("GET")).isTrue();
        assertThat(ApiKeyRole.READER.mayUse("POST")).isFalse();
        assertThat(ApiKeyRole.READER.mayUse("DELETE")).isFalse();
        assertThat(ApiKeyRole.SUBMITTER.mayUse("POST")).isTrue();
        assertThat(ApiKeyRole.SUBMITTER.access("alice", true).mayRead("bob")).isFalse();
        assertThat(ApiKeyRole.SUBMITTER.access("alice", true).mayChange("alice")).isTrue();
        assertThat(ApiKeyRole.ADMIN.access("ops", false).mayChange("bob")).isTrue();
        assertThat(ApiKeyRole.READER.access("grafana", true).mayRead("bob")).isTrue();
        assertThat(ApiKeyRole.READER.access("grafana", false).mayRead("bob")).isFalse();
        assertThat(ApiKeyRole.READER.access("grafana", true).mayChange("grafana")).isFalse();
        assertThat(ApiKeyFilter.needsKey("/api/v1/experiments")).isTrue();
        assertThat(ApiKeyFilter.needsKey("/actuator/prometheus")).isTrue();
        assertThat(ApiKeyFilter.needsKey("/actuator/health/readiness")).isFalse();
        assertThat(ApiKeyFilter.needsKey("/v3/api-docs")).isFalse();
    }

    @Test
    void readersSeeAllOrOwnAsConfigured() {
        org.springframework.mock.web.MockHttpServletRequest request = new org.springframework.mock.web.MockHttpServletRequest();
        request.setAttribute(ApiKeyFilter.KEY_ATTRIBUTE, new ApiKey("grafana", ApiKeyRole.READER));
        org.springframework.web.context.request.RequestContextHolder.setRequestAttributes(
                new org.springframework.web.context.request.ServletRequestAttributes(request));
        try {
            AuthProperties all = new AuthProperties(null, java.time.Duration.ZERO, "all");
            AuthProperties own = new AuthProperties(null, java.time.Duration.ZERO, "own");
            assertThat(new RequestCallerAccess(all.readersSeeAll()).current().mayRead("bob")).isTrue();
            assertThat(new RequestCallerAccess(own.readersSeeAll()).current().mayRead("bob")).isFalse();
            assertThat(new RequestCallerAccess(own.readersSeeAll()).current().listOwner()).isEqualTo("grafana");
        } finally {
            org.springframework.web.context.request.RequestContextHolder.resetRequestAttributes();
        }
        assertThat(new RequestCallerAccess(false).current()).isEqualTo(io.schedlab.access.CallerAccess.OPEN);
        assertThatThrownBy(() -> new AuthProperties(null, java.time.Duration.ZERO, "some"))
                .hasMessageContaining("readers-see");
    }
}
