package io.schedlab.auth;

import io.schedlab.experiments.ExperimentAccessProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * API keys on or off: with {@code schedlab.auth.keys-file} set, the file is read at start-up (a bad
 * file stops the start) and {@link ApiKeyFilter} guards the API; without it the service is open to
 * anyone and says so in a warning at start-up and once it is ready.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AuthProperties.class)
public class AuthConfiguration {

    private static final Logger log = LoggerFactory.getLogger(AuthConfiguration.class);
    static final String OPEN_WARNING = "NO API KEYS: schedlab.auth.keys-file is not set, so anyone who can reach this"
            + " service may list, read, submit and cancel every experiment. Set it for any shared use (see README, API keys).";

    @Bean
    @ConditionalOnProperty("schedlab.auth.keys-file")
    FilterRegistrationBean<ApiKeyFilter> apiKeyFilter(AuthProperties properties) {
        ApiKeys keys = ApiKeys.load(properties.keysFile());
        log.info("API keys on: {} key(s) from {}", keys.size(), properties.keysFile());
        FilterRegistrationBean<ApiKeyFilter> registration = new FilterRegistrationBean<>(new ApiKeyFilter(keys));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 7); // after RequestSanityFilter, before any body is read
        return registration;
    }

    @Bean
    ExperimentAccessProvider experimentAccessProvider() {
        return new RequestExperimentAccess();
    }

    @Bean
    ApplicationListener<ApplicationReadyEvent> openServiceWarning(AuthProperties properties) {
        if (properties.keysFile() == null) {
            log.warn(OPEN_WARNING);
        }
        return event -> {
            if (properties.keysFile() == null) {
                log.warn(OPEN_WARNING);
            }
        };
    }
}
