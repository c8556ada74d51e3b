package io.schedlab.jobs.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * A PostgreSQL database of its own for one test class: a Testcontainers server when a Docker
 * engine exists, else a fresh {@code schedlab_test_<random>} database created on the server of
 * {@code SCHEDLAB_TEST_PG_URL} (default the local CI server) and dropped afterwards, so a test
 * never relies on a clean server.
 */
public final class FreshPostgresDatabase implements AutoCloseable {

    private static final String DEFAULT_URL = "jdbc:postgresql://127.0.0.1:5432/test";

    private final String url;
    private final String user;
    private final String password;
    private final Runnable cleanup;

    private FreshPostgresDatabase(String url, String user, String password, Runnable cleanup) {
        this.url = url;
        this.user = user;
        this.password = password;
        this.cleanup = cleanup;
    }

    public static FreshPostgresDatabase create() {
        if (dockerAvailable()) {
            PostgreSQLContainer container = new PostgreSQLContainer("postgres:16-alpine");
            container.start();
            return new FreshPostgresDatabase(container.getJdbcUrl(), container.getUsername(), container.getPassword(),
                    container::stop);
        }
        String serverUrl = env("SCHEDLAB_TEST_PG_URL", DEFAULT_URL);
        String user = env("SCHEDLAB_TEST_PG_USER", "postgres");
        String password = env("SCHEDLAB_TEST_PG_PASSWORD", "");
        String name = "schedlab_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16)
                .toLowerCase(Locale.ROOT);
        execute(serverUrl, user, password, "create database " + name);
        String url = serverUrl.replaceFirst("/[^/?]*(\\?.*)?$", "/" + name + "$1");
        return new FreshPostgresDatabase(url, user, password,
                () -> execute(serverUrl, user, password, "drop database if exists " + name + " with (force)"));
    }

    public String url() {
        return url;
    }

    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    /** Spring properties pointing the application at this database. */
    public String[] springProperties() {
        return new String[] {"spring.datasource.url=" + url, "spring.datasource.username=" + user,
                "spring.datasource.password=" + password};
    }

    @Override
    public void close() {
        cleanup.run();
    }

    /** Closes the application using {@code database} (when started), then drops the database, even when the first close fails. */
    public static void closeAfter(AutoCloseable app, FreshPostgresDatabase database) {
        try {
            if (app != null) {
                app.close();
            }
        } catch (Exception e) {
            throw new IllegalStateException("closing the application failed", e);
        } finally {
            if (database != null) {
                database.close();
            }
        }
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    private static void execute(String url, String user, String password, String sql) {
        try (Connection connection = DriverManager.getConnection(url, user, password);
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL at " + url + " (" + sql + "): " + e.getMessage(), e);
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
