package io.schedlab.api;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL server of a test's own, which the test stops and starts ({@code pg_ctl}) while the service uses it:
 * a fresh cluster ({@code initdb}) in a temporary directory, on a free port, trust authentication for the
 * {@code postgres} user, and one database {@code schedlab}. The server binaries are found with {@code pg_config
 * --bindir}, else under {@code /usr/lib/postgresql/<version>/bin} (newest first); none found is an error, not a
 * skip. PostgreSQL refuses to run as root: as root, every command runs as the {@code postgres} user
 * ({@code runuser}), which then owns the directory.
 */
final class PrivatePostgresCluster implements AutoCloseable {

    private static final String DATABASE = "schedlab";
    private static final String USER = "postgres";
    private static final long COMMAND_TIMEOUT_SECONDS = 120;
    /** CI runs as root, which initdb and postgres refuse. */
    private static final boolean AS_POSTGRES_USER = "root".equals(System.getProperty("user.name"));

    private final Path bin;
    private final Path dir;
    private final int port;

    private PrivatePostgresCluster(Path bin, Path dir, int port) {
        this.bin = bin;
        this.dir = dir;
        this.port = port;
    }

    /** initdb, start, create the database; the directory is removed again if any step fails. */
    static PrivatePostgresCluster start() throws Exception {
        Path bin = serverBinaries();
        Path dir = Files.createTempDirectory("schedlab-pg-");
        PrivatePostgresCluster cluster = new PrivatePostgresCluster(bin, dir, ServiceProcesses.freePort());
        try {
            if (AS_POSTGRES_USER) {
                UserPrincipal postgres = dir.getFileSystem().getUserPrincipalLookupService()
                        .lookupPrincipalByName(USER);
                Files.setOwner(dir, postgres);
            }
            cluster.run("initdb", "-D", cluster.data().toString(), "-U", USER, "--auth=trust", "--no-sync",
                    "--encoding=UTF8", "--locale=C");
            cluster.startServer();
            try (Connection c = DriverManager.getConnection(cluster.serverUrl("postgres"), USER, "");
                    Statement s = c.createStatement()) {
                s.execute("create database " + DATABASE);
            }
            return cluster;
        } catch (Exception | AssertionError e) {
            cluster.close();
            throw e;
        }
    }

    String url() {
        return serverUrl(DATABASE);
    }

    String user() {
        return USER;
    }

    String password() {
        return "";
    }

    /** {@code pg_ctl stop -m fast}: sessions ended (SQLSTATE 57P01), a shutdown checkpoint, the server gone. */
    void stop() throws Exception {
        run("pg_ctl", "stop", "-D", data().toString(), "-m", "fast", "-w");
    }

    /** {@code pg_ctl start}, waiting until it accepts connections. */
    void startServer() throws Exception {
        // the socket in the cluster's own directory: the machine's server keeps /var/run/postgresql to itself
        run("pg_ctl", "start", "-D", data().toString(), "-w", "-t", "60", "-l", dir.resolve("server.log").toString(),
                "-o", "-p " + port + " -c listen_addresses=127.0.0.1 -k " + dir + " -c fsync=off");
    }

    /** The server's log (for a failure message). */
    Path log() {
        return dir.resolve("server.log");
    }

    @Override
    public void close() throws Exception {
        try {
            if (Files.exists(data().resolve("postmaster.pid"))) {
                run("pg_ctl", "stop", "-D", data().toString(), "-m", "immediate", "-w");
            }
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private Path data() {
        return dir.resolve("data");
    }

    private String serverUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    private void run(String tool, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        if (AS_POSTGRES_USER) {
            command.addAll(List.of("runuser", "-u", USER, "--"));
        }
        command.add(bin.resolve(tool).toString());
        command.addAll(List.of(args));
        Path output = Files.createTempFile("schedlab-pg-command-", ".log");
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
            if (!p.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not end within " + COMMAND_TIMEOUT_SECONDS
                        + " s: " + Files.readString(output));
            }
            if (p.exitValue() != 0) {
                throw new AssertionError(String.join(" ", command) + " exited " + p.exitValue() + ": "
                        + Files.readString(output) + serverLogTail());
            }
        } finally {
            Files.deleteIfExists(output);
        }
    }

    private String serverLogTail() throws IOException {
        if (!Files.exists(log())) {
            return "";
        }
        List<String> lines = Files.readAllLines(log());
        return "\nserver log:\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }

    /** The directory holding initdb and pg_ctl; an error naming what was looked at when there is none. */
    static Path serverBinaries() throws Exception {
        List<Path> candidates = new ArrayList<>();
        pgConfigBindir().ifPresent(candidates::add);
        Path versions = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(versions)) {
            try (Stream<Path> dirs = Files.list(versions)) {
                dirs.map(v -> v.resolve("bin")).sorted(Comparator.comparing(PrivatePostgresCluster::version).reversed())
                        .forEach(candidates::add);
            }
        }
        return candidates.stream()
                .filter(d -> Files.isExecutable(d.resolve("initdb")) && Files.isExecutable(d.resolve("pg_ctl")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no PostgreSQL server binaries (initdb, pg_ctl) in " + candidates
                        + ": install the PostgreSQL server (e.g. the postgresql package) to run this test"));
    }

    private static Optional<Path> pgConfigBindir() {
        try {
            Process p = new ProcessBuilder("pg_config", "--bindir").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 ? Optional.of(Path.of(out)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty(); // no pg_config on the PATH
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    private static int version(Path bin) {
        try {
            return Integer.parseInt(bin.getParent().getFileName().toString().replaceAll("\\D.*", ""));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
