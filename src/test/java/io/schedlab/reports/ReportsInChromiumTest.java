package io.schedlab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The report pages and the index in a real headless Chromium against the running service: every
 * chart has data points, no page error or CSP violation, the index shows a running sweep's
 * progress advancing; each page readable at 1920, 1400 and 1280 px ({@link ReadableLayout}).
 * Screenshots (1280 px wide) go to target/screenshots/, and also to the directory named by the
 * system property {@code schedlab.screenshots} when set (the README's images: {@code
 * -Dschedlab.screenshots=docs/images}); the load time of a 60 s, 64-pCPU experiment's report is
 * written to target/screenshots/report-load.txt (recorded, not asserted).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:file:./target/test-db/reports-${random.uuid};AUTO_SERVER=FALSE",
        "schedlab.data-dir=target/test-data/reports", "schedlab.jobs.workers=1"})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReportsInChromiumTest {

    static final String TRACED = "{\"name\": \"traced mix\", \"durationSeconds\": 2, \"stopWhen\": \"duration\","
            + " \"trace\": {\"enabled\": true}, \"host\": {\"sockets\": 1, \"coresPerSocket\": 4},"
            + " \"scheduler\": {\"policy\": \"credit\"}, \"vms\": ["
            + "{\"name\": \"desktop\", \"vcpus\": 2, \"workload\": {\"type\": \"interactive\", \"params\": {\"threads\": 2}}},"
            + "{\"name\": \"batch\", \"vcpus\": 4, \"workload\": {\"type\": \"cpu-loop\", \"params\": {\"threads\": 4}}},"
            + "{\"name\": \"job\", \"vcpus\": 1, \"workload\": {\"type\": \"cpu-loop\", \"params\": {\"workSeconds\": 0.5}}}]}";
    static final Path SHOTS = Path.of("target/screenshots");

    @LocalServerPort
    int port;
    private ChromeDriver browser;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final JsonMapper json = JsonMapper.builder().build();

    @BeforeAll
    void startBrowser() throws Exception {
        browser = HeadlessChromium.start();
        Files.createDirectories(SHOTS);
    }

    @AfterAll
    void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void experimentReportDrawsEveryChartWithDataAndTheTimelineFromTheTrace() throws Exception {
        String id = awaitExperiment(submit("/api/v1/experiments", TRACED));
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(uri("/api/v1/experiments/" + id + "/report")).GET()
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Security-Policy").orElse("")).contains("script-src 'self';");
        assertThat(page.body()).doesNotContain("http://", "https://");

        open("/api/v1/experiments/" + id + "/report?from=0.5&to=1");
        Map<String, Long> points = chartPoints();
        assertThat(points).containsKeys("chart-cdf", "chart-vm-completion", "chart-vm-headline-0", "chart-pcpu-util",
                "chart-timeline");
        assertThat(points.keySet()).as("one headline chart per unit: interactive bursts/s beside cpu-loop seconds")
                .filteredOn(k -> k.startsWith("chart-vm-headline-")).hasSizeGreaterThanOrEqualTo(2);
        assertThat(points).allSatisfy((chart, n) -> assertThat(n).as(chart + " data points").isPositive());
        assertThat(browser.findElements(By.cssSelector("a[href$='/trace.perfetto.json']"))).as("Perfetto download link").hasSize(1);
        assertThat(browser.findElement(By.id("window-from")).getDomProperty("value")).isEqualTo("0.5");
        assertThat(cdfSpan(id)).as("largest / smallest positive CDF value").isGreaterThan(100);
        assertThat(axis("chart-cdf", "xAxis", "type")).as("a CDF over more than 100x opens with a log x axis").isEqualTo("log");
        assertThat((String) axis("chart-cdf", "xAxis", "name")).as("the x axis says its unit").matches("latency \\((ns|\u00b5s|ms|s)\\)");
        ReadableLayout.assertReadable(browser, "experiment report", false);
        browser.findElement(By.id("cdf-log")).click();
        assertThat(chartPoints().get("chart-cdf")).as("linear-x CDF points").isPositive();
        assertThat(axis("chart-cdf", "xAxis", "type")).isEqualTo("value");
        // the job's work is 0.5 s of CPU: under a second, the axis reads in ms
        assertThat(axis("chart-vm-completion", "yAxis", "name")).isEqualTo("completion time (ms)");
        ReadableLayout.assertReadable(browser, "experiment report, linear CDF", false);
        browser.findElement(By.id("cdf-log")).click();
        assertThat(HeadlessChromium.errors(browser)).isEmpty();
        screenshot("experiment-report.png");
    }

    @Test
    void sweepReportDrawsACurvePerMetricAndTheTable() throws Exception {
        String body = "{\"name\": \"jobs vs policy\", \"repetitions\": 2, \"seed\": 3, \"base\": " + TRACED.replace(
                "\"trace\": {\"enabled\": true}, ", "") + ", \"axes\": [{\"name\": \"policy\", \"variants\": ["
                + "{\"name\": \"credit\", \"patch\": {}}, {\"name\": \"credit2\", \"patch\": {\"scheduler\": {\"policy\": \"credit2\"}}}]},"
                + " {\"name\": \"batchVcpus\", \"pointer\": \"/vms/1/vcpus\", \"values\": [1, 2, 4]}],"
                + " \"metrics\": [{\"name\": \"fairness\", \"pointer\": \"/summary/jainIndex\", \"better\": \"higher\"},"
                + " {\"name\": \"switches\", \"pointer\": \"/summary/contextSwitches\", \"better\": \"lower\"}],"
                + " \"baseline\": {\"policy\": \"credit\", \"batchVcpus\": \"4\"}}";
        String location = submit("/api/v1/sweeps", body);
        awaitSweep(location);
        open(location + "/report");
        Map<String, Long> points = chartPoints();
        assertThat(points).containsOnlyKeys("chart-metric-0", "chart-metric-1");
        // per metric: 2 curves (policies) x 3 points + their 3 error bars each
        assertThat(points).allSatisfy((chart, n) -> assertThat(n).as(chart).isEqualTo(12));
        assertThat(browser.findElements(By.cssSelector("#sweep-table tbody tr"))).hasSize(12);
        assertThat(axis("chart-metric-0", "xAxis", "name")).isEqualTo("batchVcpus");
        assertThat(axis("chart-metric-0", "xAxis", "minInterval")).as("integer levels, integer ticks").isEqualTo(1L);
        assertThat(axis("chart-metric-1", "yAxis", "name")).isEqualTo("switches");
        ReadableLayout.assertReadable(browser, "sweep report", false);
        assertThat(HeadlessChromium.errors(browser)).isEmpty();
        screenshot("sweep-report.png");
    }

    @Test
    void scenarioRunReportShowsPublishedBesideSimulatedInThePublishedShape() throws Exception {
        // E1 at 0.5 simulated seconds: its first table is gEDF's latency distributions with seed 000's ~2 us worst switch
        HttpResponse<String> r = post("/api/v1/scenarios/E1/runs", "{\"durationSeconds\": 0.5}");
        JsonNode tables = json.readTree(r.body()).path("tables");
        for (JsonNode t : tables) {
            awaitSweep(t.path("sweep").asString());
        }
        open(tables.path(0).path("sweep").asString() + "/report");
        Map<String, Long> points = chartPoints();
        // 3 distributions x 4 statistics simulated, and the one published number
        assertThat(points).containsEntry("chart-published", 13L);
        List<WebElement> rows = browser.findElements(By.cssSelector("#published-table tbody tr"));
        assertThat(rows).extracting(WebElement::getText).hasSize(3)
                .allSatisfy(text -> assertThat(text).doesNotContain("n/a"));
        assertThat(rows.get(0).getText()).startsWith("scheduling decision");
        assertThat(rows.get(1).findElements(By.cssSelector("td")).get(8).getText()).as("context switch max, published")
                .isEqualTo("2");
        assertThat(browser.findElements(By.cssSelector("#published-table thead tr")).get(0).getText())
                .contains("p50", "p90", "p99", "max");
        // E1's metrics read ns fields scaled by 1e-3: the axis is in microseconds, as the published table
        assertThat(axis("chart-published", "yAxis", "name")).isEqualTo("value (\u00b5s)");
        ReadableLayout.assertReadable(browser, "scenario report", false);
        assertThat(HeadlessChromium.errors(browser)).isEmpty();
        screenshot("scenario-report.png");
    }

    @Test
    void indexShowsARunningSweepsProgressAdvancing() throws Exception {
        // each child simulates millions of events (wake-ups every 0.2 ms over 600 s): seconds of wall time, so the
        // index can show the sweep between 0 and done on an idle machine too
        String hog = "{\"durationSeconds\": 600, \"stopWhen\": \"duration\", \"host\": {\"sockets\": 1, \"coresPerSocket\": 2},"
                + " \"scheduler\": {\"policy\": \"credit2\"}, \"vms\": [{\"name\": \"desktop\", \"vcpus\": 1,"
                + " \"workload\": {\"type\": \"interactive\", \"params\": {\"threads\": 2, \"thinkMeanMs\": 0.2}}}, {\"name\": \"batch\", \"vcpus\": 2,"
                + " \"workload\": {\"type\": \"cpu-loop\", \"params\": {\"threads\": 2}}}]}";
        // a long name, as scenario runs have: the index still shows every column at 1280 px
        String location = submit("/api/v1/sweeps", "{\"name\": \"progress of six repetitions of an interactive desktop beside"
                + " a two-thread batch VM on two pCPUs under credit2\", \"repetitions\": 6, \"base\": " + hog
                + ", \"metrics\": [{\"name\": \"switches\", \"pointer\": \"/summary/contextSwitches\", \"better\": \"lower\"}]}");
        String id = location.substring(location.lastIndexOf('/') + 1);
        browser.get("http://127.0.0.1:" + port + "/");
        By bar = By.cssSelector("progress[data-sweep='" + id + "']");
        new WebDriverWait(browser, Duration.ofSeconds(20)).until(d -> !d.findElements(bar).isEmpty());
        ReadableLayout.assertReadable(browser, "index", true);
        List<Integer> seen = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(240).toNanos();
        while (System.nanoTime() < deadline) {
            // read in the page in one step: the list is re-rendered every few seconds
            int value = ((Number) browser.executeScript("var b = document.querySelector(arguments[0]);"
                    + " return b ? b.value : -1;", "progress[data-sweep='" + id + "']")).intValue();
            if (value >= 0 && (seen.isEmpty() || value != seen.get(seen.size() - 1))) {
                seen.add(value);
                if (seen.size() == 2) {
                    screenshot("index.png");
                }
            }
            if (value == 6) {
                break;
            }
            Thread.sleep(150);
        }
        assertThat(seen).as("progress values the index showed").contains(6).isSorted();
        assertThat(seen.size()).as("the bar moved while the sweep ran: " + seen).isGreaterThanOrEqualTo(3);
        assertThat(browser.findElement(By.cssSelector("#sweep-" + id + " .status")).getText()).isEqualTo("SUCCEEDED");
        assertThat(HeadlessChromium.errors(browser)).isEmpty();
    }

    @Test
    void reportOfASixtySecond64PcpuExperimentLoads() throws Exception {
        StringBuilder vms = new StringBuilder();
        for (int i = 0; i < 24; i++) {
            vms.append(i == 0 ? "" : ",").append("{\"name\": \"vm").append(i).append("\", \"vcpus\": 4, \"workload\": ")
                    .append(i % 3 == 0 ? "{\"type\": \"interactive\", \"params\": {\"threads\": 4}}"
                            : "{\"type\": \"cpu-loop\", \"params\": {\"threads\": 4}}").append('}');
        }
        String big = "{\"name\": \"64 pCPUs, 60 s\", \"durationSeconds\": 60, \"stopWhen\": \"duration\","
                + " \"trace\": {\"enabled\": true}, \"host\": {\"sockets\": 2, \"coresPerSocket\": 32},"
                + " \"scheduler\": {\"policy\": \"credit2\"}, \"vms\": [" + vms + "]}";
        String id = awaitExperiment(submit("/api/v1/experiments", big));
        long start = System.nanoTime();
        open("/api/v1/experiments/" + id + "/report");
        Map<String, Long> points = chartPoints();
        double wall = (System.nanoTime() - start) / 1e9;
        Object navigation = browser.executeScript("var n = performance.getEntriesByType('navigation')[0];"
                + " return n ? Math.round(n.loadEventEnd - n.startTime) : -1;");
        assertThat(points.get("chart-timeline")).isPositive();
        String line = String.format(java.util.Locale.ROOT, "report of a 60 s, 64-pCPU experiment (trace on, timeline window 1 s,"
                + " %d timeline points: run segments and migration marks): page load event %s ms, until every chart had its data %.0f ms%n",
                points.get("chart-timeline"), navigation, wall * 1000);
        Files.writeString(SHOTS.resolve("report-load.txt"), line);
        System.out.print(line);
        Files.write(SHOTS.resolve("experiment-64-pcpus.png"), browser.getScreenshotAs(OutputType.BYTES));
    }

    /** Opens a page and waits until each of its charts has drawn; then the data points per chart id. */
    private void open(String path) {
        browser.get("http://127.0.0.1:" + port + path);
        try {
            new WebDriverWait(browser, Duration.ofSeconds(30)).until(d -> Boolean.TRUE.equals(browser.executeScript(
                    "var charts = document.querySelectorAll('.chart'); return charts.length > 0"
                    + " && Array.prototype.every.call(charts, function (c) { return c.querySelector('svg') !== null; });")));
        } catch (org.openqa.selenium.TimeoutException e) {
            throw new AssertionError(path + ": the charts did not all draw (" + browser.findElements(By.cssSelector(".chart")).size()
                    + " charts, " + browser.findElements(By.cssSelector(".chart svg")).size() + " drawn, "
                    + browser.getPageSource().length() + " characters); page errors: " + HeadlessChromium.errors(browser), e);
        }
    }

    @SuppressWarnings("unchecked")
    private Map<String, Long> chartPoints() {
        return (Map<String, Long>) browser.executeScript("var out = {};"
                + "document.querySelectorAll('.chart').forEach(function (div) {"
                + "  var c = echarts.getInstanceByDom(div);"
                + "  out[div.id] = c ? c.getOption().series.reduce(function (n, s) {"
                + "    return n + (s.data || []).filter(function (p) { return p !== '-' && p !== null; }).length; }, 0) : -1; });"
                + "return out;");
    }

    /** The viewport at 1280 px as PNG, to target/screenshots/ and to the directory -Dschedlab.screenshots names. */
    private void screenshot(String name) throws Exception {
        ReadableLayout.viewport(browser, 1280);
        byte[] png = browser.getScreenshotAs(OutputType.BYTES);
        Files.write(SHOTS.resolve(name), png);
        String published = System.getProperty("schedlab.screenshots", "");
        if (!published.isBlank()) {
            Files.createDirectories(Path.of(published));
            Files.write(Path.of(published, name), png);
        }
    }

    /** One property of a chart's first axis of a kind, as ECharts holds it after layout. */
    private Object axis(String chart, String kind, String property) {
        return browser.executeScript("return echarts.getInstanceByDom(document.getElementById(arguments[0]))"
                + ".getOption()[arguments[1]][0][arguments[2]];", chart, kind, property);
    }

    /** Largest over smallest positive value over every CDF of the experiment's result document. */
    private double cdfSpan(String id) throws Exception {
        JsonNode result = json.readTree(http.send(HttpRequest.newBuilder(uri("/api/v1/experiments/" + id + "/results"))
                .header("Accept", "application/json").GET().build(), HttpResponse.BodyHandlers.ofString()).body());
        double min = Double.MAX_VALUE;
        double max = 0;
        for (JsonNode distribution : result.path("distributions")) {
            for (JsonNode point : distribution.path("cdf")) {
                double v = point.path("valueNanos").asDouble();
                if (v > 0) {
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
            }
        }
        return max / min;
    }

    private String submit(String path, String body) throws Exception {
        return post(path, body).headers().firstValue("Location").orElseThrow();
    }

    /** POSTs JSON and expects 202. */
    private HttpResponse<String> post(String path, String body) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        return r;
    }

    private String awaitExperiment(String location) throws Exception {
        JsonNode e = awaitFinished(location);
        assertThat(e.path("status").asString()).as(e.toString()).isEqualTo("SUCCEEDED");
        return e.path("id").asString();
    }

    private void awaitSweep(String location) throws Exception {
        assertThat(awaitFinished(location).path("status").asString()).isEqualTo("SUCCEEDED");
    }

    private JsonNode awaitFinished(String location) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
        while (true) {
            JsonNode s = json.readTree(http.send(HttpRequest.newBuilder(uri(location)).GET().build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8)).body());
            String status = s.path("status").asString();
            if (List.of("SUCCEEDED", "FAILED", "CANCELLED").contains(status) || System.nanoTime() > deadline) {
                return s;
            }
            Thread.sleep(100);
        }
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }
}
