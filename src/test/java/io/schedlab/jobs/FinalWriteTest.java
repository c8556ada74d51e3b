package io.schedlab.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.kagkarlsson.scheduler.task.Execution;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A finished run's result waits in its worker while the database cannot be reached and is written once it is
 * back, with the job's row, in one transaction; any other error, a stopping process or the longest wait ends
 * the wait with the error.
 */
class FinalWriteTest {

    private static final String TASK = "simulate-experiment";

    private final AtomicBoolean down = new AtomicBoolean();
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final AtomicInteger attempts = new AtomicInteger();
    private JdbcTemplate jdbc;
    private TransactionTemplate tx;

    @BeforeEach
    void database() {
        DriverManagerDataSource h2 = new DriverManagerDataSource("jdbc:h2:mem:final-write-" + UUID.randomUUID()
                + ";DB_CLOSE_DELAY=-1", "sa", "");
        // a pool that cannot get a connection, as HikariCP answers after its connection-timeout
        DelegatingDataSource unreliable = new DelegatingDataSource(h2) {
            @Override
            public Connection getConnection() throws SQLException {
                if (down.get()) {
                    throw new SQLTransientConnectionException("pool - Connection is not available");
                }
                return super.getConnection();
            }
        };
        jdbc = new JdbcTemplate(unreliable);
        tx = new TransactionTemplate(new JdbcTransactionManager(unreliable));
        new JdbcTemplate(h2).execute("create table scheduled_tasks (task_name varchar(100), task_instance varchar(100),"
                + " version bigint, primary key (task_name, task_instance))");
        new JdbcTemplate(h2).execute("create table results (id varchar(100))");
    }

    private Execution picked(String id) {
        jdbc.update("insert into scheduled_tasks values (?, ?, 3)", TASK, id);
        return new Execution(Instant.now(), new TaskInstance<>(TASK, id), true, "me", null, null, 0, Instant.now(), 3);
    }

    private String write(String id) {
        attempts.incrementAndGet();
        jdbc.update("insert into results values (?)", id);
        return "written";
    }

    private FinalWrite finalWrite(Duration maxWait) {
        return new FinalWrite(tx, jdbc, stopping::get, maxWait);
    }

    @Test
    void theResultWaitsForTheDatabaseAndIsWrittenOnceWithTheJobsRemoval() throws Exception {
        Execution execution = picked("a");
        down.set(true);
        Thread back = new Thread(() -> {
            try {
                Thread.sleep(1_200);
            } catch (InterruptedException e) {
                return;
            }
            down.set(false);
        });
        back.start();
        assertThat(finalWrite(Duration.ofMinutes(1)).commit(execution, () -> write("a"))).isEqualTo("written");
        back.join();
        assertThat(attempts).as("the write ran only once the database answered").hasValue(1);
        assertThat(jdbc.queryForObject("select count(*) from results", Integer.class)).isEqualTo(1);
        assertThat(jdbc.queryForObject("select count(*) from scheduled_tasks", Integer.class)).isZero();
    }

    @Test
    void anotherErrorIsNotRetried() {
        Execution execution = picked("b");
        assertThatThrownBy(() -> finalWrite(Duration.ofMinutes(1)).commit(execution, () -> {
            attempts.incrementAndGet();
            throw new IllegalStateException("a bug");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(attempts).hasValue(1);
        assertThat(jdbc.queryForObject("select count(*) from scheduled_tasks", Integer.class)).isEqualTo(1);
    }

    @Test
    void aStoppingProcessOrTheLongestWaitGivesUp() {
        Execution execution = picked("c");
        down.set(true);
        long start = System.nanoTime();
        assertThatThrownBy(() -> finalWrite(Duration.ofMillis(700)).commit(execution, () -> write("c")))
                .hasRootCauseInstanceOf(SQLTransientConnectionException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
        stopping.set(true);
        assertThatThrownBy(() -> finalWrite(Duration.ofMinutes(1)).commit(execution, () -> write("c")))
                .hasRootCauseInstanceOf(SQLTransientConnectionException.class);
        assertThat(attempts).hasValue(0);
    }
}
