package io.schedlab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Run segments per pCPU from switch records, clipped to the window; migrations as marks; the size bound. */
class TraceTimelineTest {

    static final String TRACE = """
            time_ns,pcpu,event,vm,vcpu
            0,-1,vm-start,a,-1
            100,0,switch,a,0
            150,1,switch,b,1
            200,0,migrate,b,0
            300,0,switch,b,0
            400,1,switch,,-1
            500,0,switch,,-1
            900,1,switch,a,0
            1200,0,event,,-1
            """;

    @TempDir
    Path dir;

    @Test
    void segmentsAreClippedToTheWindowAndIdleIsNotASegment() throws Exception {
        Path csv = Files.writeString(dir.resolve("t.csv"), TRACE);
        TraceTimeline t = TraceTimeline.read(csv, 120, 1000, 100);
        assertThat(t.segments()).containsExactlyInAnyOrder(
                new TraceTimeline.Segment(0, 120, 300, "a", 0),
                new TraceTimeline.Segment(1, 150, 400, "b", 1),
                new TraceTimeline.Segment(0, 300, 500, "b", 0),
                new TraceTimeline.Segment(1, 900, 1000, "a", 0));
        assertThat(t.migrations()).containsExactly(new TraceTimeline.Mark(200, 0, "b", 0));
        assertThat(t.truncated()).isFalse();
    }

    @Test
    void aWindowWithMoreSegmentsThanTheBoundSaysItIsTruncated() throws Exception {
        Path csv = Files.writeString(dir.resolve("t.csv"), TRACE);
        TraceTimeline t = TraceTimeline.read(csv, 0, 2000, 2);
        assertThat(t.segments()).hasSize(2);
        assertThat(t.truncated()).isTrue();
    }
}
