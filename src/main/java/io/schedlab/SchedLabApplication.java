package io.schedlab;

import io.schedlab.auth.ApiKeyCommand;
import io.schedlab.engine.cli.Cli;
import java.util.List;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The SchedLab service: REST API, persistent job queue and metrics around the simulation engine.
 * A first argument that is not an option is a command ({@code simulate}, {@code scenario}, {@code bench},
 * {@code help}) run by the engine alone, or {@code apikey new} (a new API key), without starting
 * Spring; an unknown one is a usage error.
 */
@SpringBootApplication
public class SchedLabApplication {
    public static void main(String[] args) {
        if (ApiKeyCommand.handles(args)) {
            System.exit(ApiKeyCommand.run(args, System.out, System.err));
        }
        if (Cli.handles(args)) {
            System.exit(Cli.run(args, List.of(new Cli.OtherCommand("apikey", ApiKeyCommand.USAGE))));
        }
        SpringApplication.run(SchedLabApplication.class, args);
    }
}
