package io.schedlab.reports;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/** Report pages ({@code schedlab.reports.*}): the pCPU timeline's default window and its size bound. */
@ConfigurationProperties("schedlab.reports")
public record ReportsProperties(
        @DefaultValue("1s") Duration timelineWindow,
        @DefaultValue("20000") int maxTimelineSegments) {
}
