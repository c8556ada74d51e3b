package io.schedlab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.kagkarlsson.scheduler.PollingStrategyConfig;
import org.junit.jupiter.api.Test;

/** Lock-and-fetch limits with pick-ahead: hold workers x (1 + pick-ahead) jobs, fetch again as soon as one is taken. */
class PickAheadLimitsTest {

    @Test
    void theFetchStartsOneJobBelowTheUpperLimitForEveryPoolSize() {
        for (int workers = 1; workers <= 64; workers++) {
            for (int pickAhead = 1; pickAhead <= JobsProperties.MAX_PICK_AHEAD; pickAhead++) {
                PollingStrategyConfig config = new PollingStrategyConfig(PollingStrategyConfig.Type.LOCK_AND_FETCH,
                        JobsConfiguration.pickAheadLowerLimit(workers, pickAhead), 1.0 + pickAhead);
                int upper = config.getUpperLimit(workers);
                assertThat(upper).as("%d workers, pick-ahead %d", workers, pickAhead)
                        .isEqualTo(workers * (1 + pickAhead));
                assertThat(config.getLowerLimit(workers)).as("%d workers, pick-ahead %d", workers, pickAhead)
                        .isEqualTo(upper - 1);
            }
        }
    }
}
