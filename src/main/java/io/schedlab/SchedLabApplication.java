package io.schedlab;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The SchedLab service: REST API, persistent job queue and metrics around the simulation engine. */
@SpringBootApplication
public class SchedLabApplication {
    public static void main(String[] args) {
        SpringApplication.run(SchedLabApplication.class, args);
    }
}
