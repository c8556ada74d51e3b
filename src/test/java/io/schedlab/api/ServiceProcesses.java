package io.schedlab.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import io.schedlab.SchedLabApplication;
import io.schedlab.jobs.support.FreshPostgresDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** Helpers of the tests that start the service as its own process: a free port, waiting for readiness, a kill mid-run. */
final class ServiceProcesses {

    private ServiceProcesses() {
    }

    /** Waits up to 120 s for the readiness probe; fails at once when the process dies (see {@code log}). */
    static void awaitReady(HttpClient http, int port, Process app, Path log) throws Exception {
        awaitReady(http, port, app, log, Duration.ofSeconds(120));
    }

    /** As {@link #awaitReady(HttpClient, int, Process, Path)}, for up to {@code timeout}. */
    static void awaitReady(HttpClient http, int port, Process app, Path log, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            assertThat(app.isAlive()).as("service process alive; see " + log).isTrue();
            try {
                if (http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health/readiness"))
                        .build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new AssertionError("service not ready within " + timeout + "; see " + log);
    }

    /**
     * Starts the service in a JVM of its own as replica {@code name} of the PostgreSQL database {@code db}, with two
     * workers, listening on {@code port}, its output in {@code workDir/name.log}; {@code jvmOptions} go before the
     * class path, {@code appArgs} after the common Spring arguments.
     */
    static Process startReplica(FreshPostgresDatabase db, String name, int port, Path workDir, List<String> jvmOptions,
            String... appArgs) throws IOException {
        return startReplica(db.url(), db.user(), db.password(), name, port, workDir, jvmOptions, appArgs);
    }

    /** As {@link #startReplica(FreshPostgresDatabase, String, int, Path, List, String...)}, on the database at {@code url}. */
    static Process startReplica(String url, String user, String password, String name, int port, Path workDir,
            List<String> jvmOptions, String... appArgs) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), SchedLabApplication.class.getName(),
                "--server.port=" + port, "--spring.datasource.url=" + url,
                "--spring.datasource.username=" + user, "--spring.datasource.password=" + password,
                "--schedlab.jobs.workers=2", "--schedlab.jobs.replica-name=" + name));
        command.addAll(List.of(appArgs));
        return new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
                .redirectOutput(workDir.resolve(name + ".log").toFile()).start();
    }

    /**
     * SIGKILLs {@code app} at a moment it holds picked jobs, and returns them. The process is frozen first
     * (SIGSTOP), so what it holds cannot change between the read and the kill (a transaction it had open stays
     * open and is rolled back when the connection dies); when it holds nothing then, it is resumed (SIGCONT)
     * and {@code ready} is awaited again. Fails after {@code timeout}.
     */
    static Set<String> killWhileHolding(Process app, Connection c, String replica, Duration timeout,
            Callable<Boolean> ready) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (ready.call()) {
                signal(app, "STOP");
                Set<String> held = RunRows.strings(c, "select task_instance from scheduled_tasks where picked and"
                        + " picked_by = '" + replica + "'");
                if (!held.isEmpty()) {
                    app.destroyForcibly(); // SIGKILL: no hand-back, no shutdown hook
                    assertThat(app.waitFor(30, TimeUnit.SECONDS)).as(replica + " exited").isTrue();
                    return held;
                }
                signal(app, "CONT");
            }
            Thread.sleep(10);
        }
        throw new AssertionError(replica + " never held a job when it was frozen");
    }

    private static void signal(Process app, String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(app.pid())).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0).as("kill -" + signal).isTrue();
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
