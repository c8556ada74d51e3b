package io.schedlab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The system's Chromium (Debian {@code chromium} + {@code chromium-driver}) driven by Selenium,
 * headless, with a fresh profile and nothing fetched from the network. Fails, never skips, when
 * they are missing: {@code .ci/run} installs them.
 */
final class HeadlessChromium {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path DRIVER = Path.of("/usr/bin/chromedriver");
    /** Records uncaught errors, console.error calls and CSP violations from the first script on. */
    static final String ERROR_HOOK = "window.__pageErrors = [];"
            + "window.addEventListener('error', function (e) { window.__pageErrors.push('error: ' + e.message); });"
            + "window.addEventListener('unhandledrejection', function (e) { window.__pageErrors.push('rejection: ' + e.reason); });"
            + "document.addEventListener('securitypolicyviolation', function (e) {"
            + " window.__pageErrors.push('CSP ' + e.violatedDirective + ' ' + e.blockedURI); });"
            + "(function () { var original = console.error; console.error = function () {"
            + " window.__pageErrors.push('console.error: ' + Array.prototype.join.call(arguments, ' '));"
            + " return original.apply(console, arguments); }; })();";

    private HeadlessChromium() {
    }

    static ChromeDriver start() throws IOException {
        assertThat(Files.isExecutable(CHROMIUM) && Files.isExecutable(DRIVER))
                .as("the browser tests need Debian's chromium and chromium-driver (%s, %s): apt-get install chromium"
                        + " chromium-driver (.ci/run installs them)", CHROMIUM, DRIVER)
                .isTrue();
        Files.createDirectories(Path.of("target"));
        Path profile = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "chromium-profile-");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-quic", "--no-first-run", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1400,1800", "--user-data-dir=" + profile);
        options.setCapability("goog:loggingPrefs", Map.of("browser", "ALL"));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
        driver.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source", ERROR_HOOK));
        return driver;
    }

    /** Errors the page reported since it loaded (see {@link #ERROR_HOOK}) plus SEVERE entries of the browser log. */
    @SuppressWarnings("unchecked")
    static List<String> errors(ChromeDriver driver) {
        List<String> errors = new java.util.ArrayList<>((List<String>) driver.executeScript(
                "return window.__pageErrors || ['the error hook did not run'];"));
        driver.manage().logs().get(org.openqa.selenium.logging.LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= java.util.logging.Level.SEVERE.intValue())
                .forEach(e -> errors.add("console: " + e.getMessage()));
        return errors;
    }
}
