package io.schedlab.experiments;

import io.schedlab.engine.Engine;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The one shared {@link Engine} (with every built-in policy and workload) and the limits it validates against. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({LimitsProperties.class, QuotaProperties.class})
public class EngineConfiguration {

    @Bean
    Engine engine() {
        return Engine.standard();
    }
}
