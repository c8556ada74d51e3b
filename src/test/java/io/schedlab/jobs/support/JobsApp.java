package io.schedlab.jobs.support;

import io.schedlab.SchedLabApplication;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** Starts and stops the application like a process would, for restart and multi-database tests. */
public final class JobsApp {

    private JobsApp() {
    }

    /** Starts the app (no web server) with the test doubles and the given {@code key=value} properties. */
    public static ConfigurableApplicationContext start(String... properties) {
        List<String> args = new ArrayList<>();
        for (String property : properties) {
            args.add("--" + property);
        }
        return new SpringApplicationBuilder(SchedLabApplication.class, JobsTestConfiguration.class)
                .web(WebApplicationType.NONE)
                .run(args.toArray(String[]::new));
    }
}
