package io.schedlab.auth;

import io.micrometer.core.instrument.MeterRegistry;
import io.schedlab.access.CallerAccessProvider;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * API keys on or off: with {@code schedlab.auth.keys-file} set, the file is read at start-up (a bad
 * file stops the start) and again whenever it changes ({@link ReloadingApiKeys}; a bad change is
 * refused), and {@link ApiKeyFilter} guards the API; without it the service is open to anyone and
 * says so in a warning at start-up and once it is ready.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AuthProperties.class)
public class AuthConfiguration {

    private static final Logger log = LoggerFactory.getLogger(AuthConfiguration.class);
    static final String OPEN_WARNING = "NO API KEYS: schedlab.auth.keys-file is not set, so anyone who can reach this"
            + " service may list, read, submit and cancel every experiment. Set it for any shared use (see README, API keys).";

    @Bean
    @ConditionalOnProperty("schedlab.auth.keys-file")
    ReloadingApiKeys apiKeys(AuthProperties properties, MeterRegistry meters) {
        ReloadingApiKeys keys = new ReloadingApiKeys(properties.keysFile(), meters);
        log.info("API keys on: {} key(s) from {}{}", keys.get().size(), properties.keysFile(),
                properties.keysReloadInterval().isZero() ? " (not reloaded: schedlab.auth.keys-reload-interval is 0)"
                        : ", checked for changes every " + properties.keysReloadInterval());
        return keys;
    }

    /** Polls the keys file for changes on a daemon thread (none when the interval is 0); stopped with the context. */
    @Bean(destroyMethod = "shutdownNow")
    @ConditionalOnProperty("schedlab.auth.keys-file")
    ScheduledExecutorService apiKeysReloader(ReloadingApiKeys keys, AuthProperties properties) {
        ScheduledExecutorService poller = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "api-keys-reload");
            t.setDaemon(true);
            return t;
        });
        long every = properties.keysReloadInterval().toMillis();
        if (every > 0) {
            poller.scheduleWithFixedDelay(() -> {
                try {
                    keys.reloadIfChanged();
                } catch (RuntimeException e) {
                    log.error("checking the API keys file failed; the current keys stay in force", e);
                }
            }, every, every, TimeUnit.MILLISECONDS);
        }
        return poller;
    }

    /** Health detail {@code apiKeys}: keys in force, when read, and the last refused change of the file. */
    @Bean
    @ConditionalOnProperty("schedlab.auth.keys-file")
    HealthIndicator apiKeysHealthIndicator(ReloadingApiKeys keys) {
        // UP even after a refused change: the previous keys still serve, the detail tells what to fix
        return () -> Health.up().withDetails(keys.details()).build();
    }

    @Bean
    @ConditionalOnProperty("schedlab.auth.keys-file")
    FilterRegistrationBean<ApiKeyFilter> apiKeyFilter(ReloadingApiKeys keys) {
        FilterRegistrationBean<ApiKeyFilter> registration = new FilterRegistrationBean<>(new ApiKeyFilter(keys));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 7); // after RequestSanityFilter, before any body is read
        return registration;
    }

    @Bean
    CallerAccessProvider callerAccessProvider(AuthProperties properties) {
        return new RequestCallerAccess(properties.readersSeeAll());
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
