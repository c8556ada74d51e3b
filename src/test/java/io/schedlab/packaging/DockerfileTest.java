package io.schedlab.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Static checks of the Dockerfile: stages, wrapper build, layered jar, non-root user, healthcheck. */
class DockerfileTest {

    private static final Pattern FROM = Pattern.compile("(?i)^FROM\\s+(\\S+)(?:\\s+AS\\s+(\\S+))?");
    private static final List<String> LAYERS = List.of("dependencies", "spring-boot-loader", "snapshot-dependencies", "application");

    private static List<String> instructions;

    @BeforeAll
    static void parse() {
        instructions = logicalLines(RepoFiles.read("Dockerfile"));
    }

    @Test
    void buildsOnAJdk17AndRunsOnAJre17() {
        List<Matcher> stages = instructions.stream().map(FROM::matcher).filter(Matcher::find).toList();
        assertThat(stages).hasSizeGreaterThanOrEqualTo(2);
        assertThat(stages.get(0).group(1)).isEqualTo("eclipse-temurin:17-jdk");
        assertThat(stages.get(0).group(2)).isNotNull();
        assertThat(stages.get(stages.size() - 1).group(1)).isEqualTo("eclipse-temurin:17-jre");
    }

    @Test
    void buildsWithTheMavenWrapperAfterADependencyOnlyLayer() {
        int goOffline = indexOf("RUN", "./mvnw", "dependency:go-offline");
        int copySources = indexOf("COPY", "src/");
        int packageRun = indexOf("RUN", "./mvnw", "-DskipTests", "package");
        assertThat(indexOf("COPY", "pom.xml")).isLessThan(goOffline);
        assertThat(goOffline).isLessThan(copySources);
        assertThat(copySources).isLessThan(packageRun);
    }

    @Test
    void extractsTheLayeredJarAndCopiesEveryLayerIntoTheRunStage() {
        assertThat(instructions.get(indexOf("RUN", "-Djarmode=tools"))).contains("extract --layers --launcher");
        int lastCopy = -1;
        for (String layer : LAYERS) {
            int copy = indexOf("COPY", "--from=", "/" + layer + "/");
            assertThat(copy).as("layer " + layer + " copied in order").isGreaterThan(lastCopy);
            lastCopy = copy;
        }
        assertThat(instructions.get(indexOf("ENTRYPOINT"))).contains("org.springframework.boot.loader.launch.JarLauncher");
    }

    @Test
    void letsTheWorkersRunBelowTheApiThreads() {
        // SimulationJob lowers the engine's thread priority; Linux applies Java priorities only with this flag
        assertThat(instructions.get(indexOf("ENTRYPOINT"))).contains("\"-XX:ThreadPriorityPolicy=1\"");
    }

    @Test
    void runsAsANonRootUser() {
        List<String> users = instructions.stream().filter(i -> keyword(i).equals("USER")).toList();
        assertThat(users).isNotEmpty();
        String user = users.get(users.size() - 1).substring(4).trim().split(":")[0];
        assertThat(user).isNotIn("root", "0");
        assertThat(indexOf("USER")).isLessThan(indexOf("ENTRYPOINT"));
    }

    @Test
    void exposesTheServerPortAndChecksLiveness() {
        assertThat(instructions).anyMatch(i -> i.matches("(?i)EXPOSE\\s+8080"));
        assertThat(instructions).anyMatch(i -> i.matches("(?i)ENV\\s+SCHEDLAB_PORT=8080"));
        String healthcheck = instructions.get(indexOf("HEALTHCHECK"));
        assertThat(healthcheck).contains("/actuator/health/liveness").contains("${SCHEDLAB_PORT}");
        // The probe tool must be installed in the run stage: the JRE image ships neither curl nor wget.
        assertThat(instructions.get(indexOf("RUN", "apt-get install", "curl"))).isNotNull();
    }

    @Test
    void dockerignoreKeepsBuildOutputOutButEveryCopiedSourceIn() {
        List<PathMatcher> ignored = RepoFiles.read(".dockerignore").lines()
                .map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#"))
                .map(l -> FileSystems.getDefault().getPathMatcher("glob:" + l.replaceAll("/$", "")))
                .toList();
        assertThat(isIgnored(ignored, "target")).isTrue();
        assertThat(isIgnored(ignored, ".git")).isTrue();
        for (String instruction : instructions) {
            if (keyword(instruction).equals("COPY") && !instruction.contains("--from=")) {
                String[] words = instruction.split("\\s+");
                for (int i = 1; i < words.length - 1; i++) {
                    String source = words[i].replaceAll("/$", "");
                    assertThat(RepoFiles.path(source)).as("COPY source " + source).exists();
                    assertThat(isIgnored(ignored, source)).as(source + " excluded by .dockerignore").isFalse();
                }
            }
        }
    }

    private static boolean isIgnored(List<PathMatcher> ignored, String source) {
        return ignored.stream().anyMatch(m -> m.matches(Path.of(source)));
    }

    private static int indexOf(String keyword, String... fragments) {
        for (int i = 0; i < instructions.size(); i++) {
            String instruction = instructions.get(i);
            if (keyword(instruction).equals(keyword) && List.of(fragments).stream().allMatch(instruction::contains)) {
                return i;
            }
        }
        throw new AssertionError("no " + keyword + " instruction containing " + List.of(fragments));
    }

    private static String keyword(String instruction) {
        return instruction.split("\\s+", 2)[0].toUpperCase(Locale.ROOT);
    }

    /** Dockerfile instructions with comments removed and backslash continuations joined. */
    private static List<String> logicalLines(String dockerfile) {
        List<String> lines = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String raw : dockerfile.split("\n")) {
            String line = raw.strip();
            if (line.startsWith("#") || line.isEmpty()) {
                continue;
            }
            if (line.endsWith("\\")) {
                current.append(line, 0, line.length() - 1).append(' ');
            } else {
                lines.add(current.append(line).toString().replaceAll("\\s+", " ").trim());
                current.setLength(0);
            }
        }
        return lines;
    }
}
