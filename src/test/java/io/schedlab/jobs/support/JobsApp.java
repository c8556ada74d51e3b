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
        return new SpringApplicationBuilder(SchedLabApplication.class, JobsTestConfiguration.class)
                .web(WebApplicationType.NONE)
                .run(arguments(properties));
    }

    /** Starts the real app (experiments store, engine; no web server) with the given properties. */
    public static ConfigurableApplicationContext startReal(String... properties) {
        return new SpringApplicationBuilder(SchedLabApplication.class)
                .web(WebApplicationType.NONE)
                .run(arguments(properties));
    }

    private static String[] arguments(String... properties) {
        List<String> args = new ArrayList<>();
        for (String property : properties) {
            args.add("--" + property);
        }
        return args.toArray(String[]::new);
    }
}
