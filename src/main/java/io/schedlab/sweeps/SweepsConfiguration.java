package io.schedlab.sweeps;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

/** Binds {@code schedlab.sweeps.*}. */
@Configuration
@EnableConfigurationProperties(SweepsProperties.class)
class SweepsConfiguration {
}
