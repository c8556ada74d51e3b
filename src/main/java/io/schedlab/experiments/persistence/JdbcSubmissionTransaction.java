package io.schedlab.experiments.persistence;

import io.schedlab.experiments.SubmissionTransaction;
import javax.sql.DataSource;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@link SubmissionTransaction} as a plain JDBC transaction on the application's DataSource. A
 * submission touches no JPA entity (one INSERT of the experiment, one of its db-scheduler job), so
 * it does not need the JPA transaction manager, whose Hibernate session per transaction was ~7% of
 * a submission's CPU in a JFR profile of wrk POSTs. Both INSERTs take this transaction's connection
 * (JdbcTemplate and db-scheduler's transaction-aware DataSource), so they commit together.
 */
@Component
class JdbcSubmissionTransaction implements SubmissionTransaction {

    private final TransactionTemplate tx;

    JdbcSubmissionTransaction(DataSource dataSource) {
        this.tx = new TransactionTemplate(new JdbcTransactionManager(dataSource));
    }

    @Override
    public void run(Runnable work) {
        tx.executeWithoutResult(status -> work.run());
    }
}
