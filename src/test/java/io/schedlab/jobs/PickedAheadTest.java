package io.schedlab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.kagkarlsson.scheduler.task.Execution;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Each picked-ahead job is claimed once: by the worker that starts it, or by the hand-back; a worker does not
 * run a job handed back, nor one that waited past the maximum wait and whose row is no longer this pick.
 */
class PickedAheadTest {

    private static final Duration MAX_WAIT = Duration.ofMillis(200);
    private static final String TASK = "simulate-experiment";

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final AtomicInteger wakeUps = new AtomicInteger();
    private JdbcTemplate jdbc;
    private PickedAhead pickedAhead;

    @BeforeEach
    void table() {
        jdbc = new JdbcTemplate(new DriverManagerDataSource("jdbc:h2:mem:picked-ahead-" + UUID.randomUUID()
                + ";DB_CLOSE_DELAY=-1", "sa", ""));
        jdbc.execute("create table scheduled_tasks (task_name varchar(100), task_instance varchar(100),"
                + " picked boolean, picked_by varchar(50), last_heartbeat timestamp with time zone, version bigint,"
                + " primary key (task_name, task_instance))");
        pickedAhead = new PickedAhead(jdbc, MAX_WAIT, clock::get, wakeUps::incrementAndGet);
    }

    private Execution pick(String id, long version) {
        jdbc.update("merge into scheduled_tasks key (task_name, task_instance) values (?, ?, true, 'me', ?, ?)", TASK,
                id, java.sql.Timestamp.from(Instant.now()), version);
        Execution e = new Execution(Instant.now(), new TaskInstance<>(TASK, id), true, "me", null, null, 0,
                Instant.now(), version);
        pickedAhead.picked(List.of(e));
        return e;
    }

    private Map<String, Object> row(String id) {
        return jdbc.queryForMap("select picked, picked_by, version from scheduled_tasks where task_instance = ?", id);
    }

    private void advance(Duration d) {
        clock.addAndGet(d.toNanos());
    }

    @Test
    void aJobStartedWithinTheMaximumWaitRunsAndIsNeverHandedBack() {
        Execution e = pick("a", 2);
        advance(MAX_WAIT.dividedBy(2));
        assertThat(pickedAhead.claimForStart(e)).isTrue();
        advance(MAX_WAIT.multipliedBy(3));
        assertThat(pickedAhead.handBackOverdue()).isZero();
        assertThat(row("a")).containsEntry("picked", true).containsEntry("version", 2L);
        assertThat(pickedAhead.waiting()).isZero();
    }

    @Test
    void anOverdueJobGoesBackWithANewVersionWakesTheReplicasAndItsQueuedCopyIsNotRun() {
        Execution e = pick("b", 2);
        advance(MAX_WAIT);
        assertThat(pickedAhead.handBackOverdue()).isEqualTo(1);
        assertThat(row("b")).containsEntry("picked", false).containsEntry("version", 3L);
        assertThat(wakeUps.get()).isEqualTo(1);
        assertThat(pickedAhead.waiting()).isZero();
        assertThat(pickedAhead.claimForStart(e)).as("the copy still queued here").isFalse();
    }

    @Test
    void aWorkerLateForAJobWhoseRowChangedMeanwhileDoesNotRunIt() {
        Execution revived = pick("c", 2);
        Execution stillOurs = pick("d", 2);
        // the hand-back never came (a pause, a failing database): "c" was revived elsewhere, "d" was not
        jdbc.update("update scheduled_tasks set picked = false, version = 3 where task_instance = 'c'");
        advance(MAX_WAIT.multipliedBy(30));
        assertThat(pickedAhead.claimForStart(revived)).isFalse();
        assertThat(pickedAhead.claimForStart(stillOurs)).as("the row is still this pick: run it").isTrue();
        assertThat(row("d")).containsEntry("picked", true).containsEntry("version", 2L);
    }

    @Test
    void aLateWorkerThatCannotCheckTheRowLeavesTheJobToBeRevivedInsteadOfRunningIt() {
        Execution e = pick("h", 2);
        advance(MAX_WAIT.multipliedBy(2));
        jdbc.execute("drop table scheduled_tasks"); // the database fails the check
        assertThat(pickedAhead.claimForStart(e)).isFalse();
    }

    @Test
    void aStoppingProcessHandsBackEveryWaitingJobAtOnce() {
        Execution young = pick("e", 2);
        pick("f", 5);
        assertThat(pickedAhead.handBackAll()).isEqualTo(2);
        assertThat(row("e")).containsEntry("picked", false).containsEntry("version", 3L);
        assertThat(row("f")).containsEntry("picked", false).containsEntry("version", 6L);
        assertThat(pickedAhead.claimForStart(young)).isFalse();
    }

    @Test
    void aHandBackThatFindsTheRowChangedCountsNothingAndWakesNoOne() {
        Execution e = pick("g", 2);
        jdbc.update("delete from scheduled_tasks where task_instance = 'g'"); // finished elsewhere
        advance(MAX_WAIT);
        assertThat(pickedAhead.handBackOverdue()).isZero();
        assertThat(wakeUps.get()).isZero();
        assertThat(pickedAhead.claimForStart(e)).isFalse();
    }
}
