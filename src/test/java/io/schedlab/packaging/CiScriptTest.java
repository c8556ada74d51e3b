package io.schedlab.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** .ci/run and README.md agree: the README's set-up commands are the ones CI and newcomers run. */
class CiScriptTest {

    private static final Pattern BASH_BLOCK = Pattern.compile("```bash\\n(.*?)```", Pattern.DOTALL);

    @Test
    void ciRunsExactlyTheReadmeTestCommandLast() {
        List<String> setUp = readmeSetUpCommands();
        assertThat(setUp).as("README set-up commands").hasSize(2);
        assertThat(setUp.get(0)).isEqualTo("./mvnw spring-boot:run");

        List<String> commands = RepoFiles.read(".ci/run").lines()
                .map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        assertThat(commands).contains("set -euo pipefail");
        assertThat(commands.get(commands.size() - 1)).isEqualTo(setUp.get(1));
        assertThat(setUp.get(1)).startsWith("./mvnw ");
    }

    @Test
    void ciInstallsPrometheusAndStartsPostgresWhenMissing() {
        String ci = RepoFiles.read(".ci/run");
        assertThat(ci).contains("/usr/bin/prometheus").contains("apt-get install");
        assertThat(ci).as("the browser tests' Chromium").contains("[ -x /usr/bin/chromium ] || missing+=(chromium)")
                .contains("[ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)");
        assertThat(ci).contains("pg_isready").contains("pg_ctlcluster --skip-systemctl-redirect");
    }

    /** The code blocks of the README's "Set-up" section, one command each. */
    private static List<String> readmeSetUpCommands() {
        String readme = RepoFiles.read("README.md");
        int start = readme.indexOf("\n## Set-up");
        assertThat(start).as("README has a Set-up section").isPositive();
        int end = readme.indexOf("\n## ", start + 1);
        String section = readme.substring(start, end < 0 ? readme.length() : end);
        List<String> commands = new ArrayList<>();
        Matcher matcher = BASH_BLOCK.matcher(section);
        while (matcher.find()) {
            commands.add(matcher.group(1).strip());
        }
        return commands;
    }
}
