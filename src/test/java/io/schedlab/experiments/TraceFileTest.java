package io.schedlab.experiments;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceFileTest {

    @Test
    void committedTraceHasLfLineEndingsAndEmptyCellsForNotApplicable(@TempDir Path dataDir) throws Exception {
        UUID id = UUID.randomUUID();
        TraceFile trace = TraceFile.open(dataDir, id, 10);
        trace.record(1_000, 0, "run", "VM1", 0);
        trace.record(2_000, 1, "idle", null, 0);
        trace.record(3_000, -1, "vm-start", "VM2", -1); // no pCPU, no vCPU
        trace.record(4_000, 1, "tickle", null, -1);
        trace.commit();

        String text = Files.readString(TraceFile.pathOf(dataDir, id), StandardCharsets.UTF_8);
        assertThat(text).isEqualTo("time_ns,pcpu,event,vm,vcpu\n1000,0,run,VM1,0\n2000,1,idle,,0\n"
                + "3000,,vm-start,VM2,\n4000,1,tickle,,\n");
    }
}
