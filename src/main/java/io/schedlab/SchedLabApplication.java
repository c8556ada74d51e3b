package io.schedlab;

import io.schedlab.engine.cli.Cli;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The SchedLab service: REST API, persistent job queue and metrics around the simulation engine.
 * {@code simulate FILE} and {@code bench} run the engine alone, without starting Spring.
 */
@SpringBootApplication
public class SchedLabApplication {
    public static void main(String[] args) {
        if (Cli.handles(args)) {
            System.exit(Cli.run(args));
        }
        SpringApplication.run(SchedLabApplication.class, args);
    }
}
