package io.schedlab.experiments;

import io.schedlab.jobs.support.FreshPostgresDatabase;
import org.junit.jupiter.api.AfterAll;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link RunningQuotaStartTest} on PostgreSQL (READ COMMITTED, as replicas run it): the owner's
 * row lock makes concurrent starts take turns there too.
 */
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class RunningQuotaStartPostgresTest extends RunningQuotaStartTest {

    private static FreshPostgresDatabase database;

    @DynamicPropertySource
    static void postgres(DynamicPropertyRegistry registry) {
        database = FreshPostgresDatabase.create();
        registry.add("spring.datasource.url", database::url);
        registry.add("spring.datasource.username", database::user);
        registry.add("spring.datasource.password", database::password);
    }

    @AfterAll
    static void drop() {
        FreshPostgresDatabase.closeAfter(null, database);
    }
}
