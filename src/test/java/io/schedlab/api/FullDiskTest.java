package io.schedlab.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.SchedLabApplication;
import java.io.RandomAccessFile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.ClassPathResource;
import tools.jackson.databind.json.JsonMapper;

/**
 * The embedded H2 database on a disk that fills up: the service runs on a 24 MiB file system of its
 * own (a tmpfs mounted by the test, which needs root: without it the test is skipped saying why);
 * once a file eats the space, submissions answer {@code 507 storage-full} naming the setting and
 * store nothing, while what was accepted stays readable; once the space is freed, submissions are
 * taken again without a restart.
 */
class FullDiskTest {

    private static final Path DISK = Path.of("target/test-data/full-disk");
    private static boolean mounted;
    private static ConfigurableApplicationContext app;
    private static int port;

    private final HttpClient http = HttpClient.newHttpClient();
    private final JsonMapper json = JsonMapper.builder().build();

    @BeforeAll
    static void start() throws Exception {
        Files.createDirectories(DISK);
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", DISK.toString())
                .redirectErrorStream(true).start();
        boolean done = mount.waitFor(10, TimeUnit.SECONDS);
        String said = new String(mount.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        Assumptions.assumeTrue(done && mount.exitValue() == 0,
                "FullDiskTest needs a file system of its own (mount -t tmpfs, as root): " + said.trim());
        mounted = true;
        app = new SpringApplicationBuilder(SchedLabApplication.class).run("--server.port=0",
                "--spring.datasource.url=jdbc:h2:file:./" + DISK + "/schedlab", "--schedlab.data-dir=" + DISK,
                "--schedlab.jobs.enabled=false", "--schedlab.limits.min-free-disk-mb=8");
        port = ((WebServerApplicationContext) app).getWebServer().getPort();
    }

    @AfterAll
    static void stop() throws Exception {
        if (app != null) {
            app.close();
        }
        if (mounted) {
            new ProcessBuilder("umount", "-l", DISK.toString()).start().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aNearlyFullDiskRefusesSubmissionsKeepsWhatItAcceptedAndRecovers() throws Exception {
        HttpResponse<String> before = submit();
        assertThat(before.statusCode()).as(before.body()).isEqualTo(202);
        String id = json.readTree(before.body()).path("id").asString();

        Path filler = DISK.resolve("filler");
        long free = Files.getFileStore(DISK).getUsableSpace();
        try (RandomAccessFile f = new RandomAccessFile(filler.toFile(), "rw")) {
            byte[] chunk = new byte[1 << 20];
            for (long written = 0; written < free - (4L << 20); written += chunk.length) {
                f.write(chunk); // written, not sparse: tmpfs counts the pages
            }
        }
        Thread.sleep(1_200); // the guard reads the disk at most once a second

        HttpResponse<String> refused = submit();
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(507);
        assertThat(refused.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
        assertThat(refused.headers().firstValue("Retry-After")).isPresent();
        assertThat(refused.body()).contains("https://schedlab.io/problems/storage-full")
                .contains("schedlab.limits.min-free-disk-mb");
        HttpResponse<String> kept = get("/api/v1/experiments/" + id);
        assertThat(kept.statusCode()).as(kept.body()).isEqualTo(200);
        HttpResponse<String> list = get("/api/v1/experiments?size=100");
        assertThat(json.readTree(list.body()).path("totalItems").asLong()).as("nothing stored by the refusal").isEqualTo(1);

        Files.delete(filler);
        Thread.sleep(1_200);
        HttpResponse<String> after = submit();
        assertThat(after.statusCode()).as(after.body()).isEqualTo(202);
    }

    private HttpResponse<String> submit() throws Exception {
        String seed = new ClassPathResource("service/seed001-static.json").getContentAsString(StandardCharsets.UTF_8);
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/experiments"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(seed)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
