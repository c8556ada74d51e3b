package io.schedlab.experiments.web;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.MediaType;

/**
 * Cost-bounded admission: the runs that held a worker for hours or needed gigabytes of heap are
 * refused with 422 experiment-too-costly naming estimate and limit, and nothing is stored or queued.
 */
@WebMvcTest
class CostlyExperimentsApiTest extends RealValidatorSlice {

    /** 256 pCPUs, 2,048 vCPUs, credit2 with a 10 us timer floor, 1 us interactive bursts, 3,600 s. */
    static String timerFloorRun() {
        StringBuilder vms = new StringBuilder();
        for (int i = 0; i < 512; i++) {
            vms.append(i == 0 ? "" : ",").append("{\"name\":\"vm").append(i).append("\",\"vcpus\":4,\"workload\":")
                    .append("{\"type\":\"interactive\",\"params\":{\"threads\":4,\"thinkMeanMs\":0.01,\"burstMeanUs\":1}}}");
        }
        return "{\"durationSeconds\":3600,\"host\":{\"sockets\":2,\"coresPerSocket\":128},"
                + "\"scheduler\":{\"policy\":\"credit2\",\"params\":{\"minTimerUs\":10}},\"vms\":[" + vms + "]}";
    }

    /** 512 VMs x 4,096 idle guest threads: ~2.1 M threads. */
    static String manyThreadsRun() {
        StringBuilder vms = new StringBuilder();
        for (int i = 0; i < 512; i++) {
            vms.append(i == 0 ? "" : ",").append("{\"name\":\"vm").append(i).append("\",\"vcpus\":1,\"workload\":")
                    .append("{\"type\":\"idle\",\"params\":{\"threads\":4096,\"wakeIntervalMs\":3600000}}}");
        }
        return "{\"durationSeconds\":1,\"host\":{\"sockets\":1,\"coresPerSocket\":64},"
                + "\"scheduler\":{\"policy\":\"credit\"},\"vms\":[" + vms + "]}";
    }

    @Test
    void aRunOverTheEventLimitIsRefusedNamingEstimateAndLimit() throws Exception {
        for (String path : new String[] {"/api/v1/experiments", "/api/v1/experiments:validate"}) {
            mvc.perform(post(path).contentType(MediaType.APPLICATION_JSON).content(timerFloorRun()))
                    .andExpect(status().isUnprocessableContent())
                    .andExpect(content().contentTypeCompatibleWith("application/problem+json"))
                    .andExpect(jsonPath("$.type").value("https://schedlab.io/problems/experiment-too-costly"))
                    .andExpect(jsonPath("$.maxEvents").value(500_000_000L))
                    .andExpect(jsonPath("$.estimatedEvents", Matchers.greaterThan(500_000_000L)))
                    .andExpect(jsonPath("$.detail", Matchers.containsString("schedlab.limits.max-events")));
        }
        verify(repository, never()).insertQueuedAll(any());
        verify(jobQueue, never()).enqueueAll(any());
    }

    @Test
    void aRunOverTheHeapBudgetIsRefused() throws Exception {
        mvc.perform(post("/api/v1/experiments").contentType(MediaType.APPLICATION_JSON).content(manyThreadsRun()))
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.type").value("https://schedlab.io/problems/experiment-too-costly"))
                .andExpect(jsonPath("$.maxHeapBytes").value(512L << 20))
                .andExpect(jsonPath("$.estimatedHeapBytes", Matchers.greaterThan(1 << 30)))
                .andExpect(jsonPath("$.detail", Matchers.containsString("max-run-heap-mb")));
        verify(repository, never()).insertQueuedAll(any());
    }

    /** {@code vms} VMs of {@code vcpus} vCPUs (one cpu-loop thread each) under cfs on sockets x 64 cores x 2 threads, 1 s. */
    static String largeHost(int sockets, int vms, int vcpus) {
        StringBuilder list = new StringBuilder();
        for (int i = 0; i < vms; i++) {
            list.append(i == 0 ? "" : ",").append("{\"name\":\"vm").append(i).append("\",\"vcpus\":").append(vcpus)
                    .append(",\"workload\":{\"type\":\"cpu-loop\",\"params\":{\"workSeconds\":0}}}");
        }
        return "{\"durationSeconds\":1,\"host\":{\"sockets\":" + sockets + ",\"coresPerSocket\":64,\"threadsPerCore\":2},"
                + "\"scheduler\":{\"policy\":\"cfs\"},\"vms\":[" + list + "]}";
    }

    @Test
    void theLargestHostByDefaultIsAccepted1024PcpusAnd8192VcpusAndOneMoreOfEitherIsNot() throws Exception {
        // 8 x 64 x 2 = 1,024 pCPUs, 512 VMs x 16 = 8,192 vCPUs: the default limits (KVM: every vCPU fork-placed)
        mvc.perform(post("/api/v1/experiments:validate").contentType(MediaType.APPLICATION_JSON)
                        .content(largeHost(8, 512, 16)))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.normalized.vms[511].placement.length()").value(16));
        mvc.perform(post("/api/v1/experiments:validate").contentType(MediaType.APPLICATION_JSON)
                        .content(largeHost(9, 1, 1)))
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.errors[0].pointer").value("/host"))
                .andExpect(jsonPath("$.errors[0].message", Matchers.containsString("at most 1024 pCPUs")));
        mvc.perform(post("/api/v1/experiments:validate").contentType(MediaType.APPLICATION_JSON)
                        .content(largeHost(8, 512, 16).replace("\"vm0\",\"vcpus\":16", "\"vm0\",\"vcpus\":17")))
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.errors[0].pointer").value("/vms"))
                .andExpect(jsonPath("$.errors[0].message", Matchers.containsString("at most 8192 vCPUs")));
    }
}
