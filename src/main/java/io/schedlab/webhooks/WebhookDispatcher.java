package io.schedlab.webhooks;

import io.schedlab.sweeps.SweepStatus;
import io.schedlab.sweeps.persistence.SweepRow;
import io.schedlab.sweeps.persistence.SweepStore;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Consumer;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns WAITING deliveries whose experiment or sweep has finished into SENDING ones: their event is
 * written once (the same bytes on every attempt) and their delivery task scheduled in the same
 * transaction, so a finished subject is never left without a delivery nor given two. Run by the
 * recurring "dispatch-webhooks" task every {@code schedlab.webhooks.poll-interval}, on one process at a time.
 */
final class WebhookDispatcher {

    /** Deliveries of each kind taken per run; the rest are taken at the next run. */
    static final int BATCH = 100;

    private final DeliveryStore store;
    private final SweepStore sweeps;
    private final TransactionTemplate tx;
    private final JsonMapper json = JsonMapper.builder().build();

    WebhookDispatcher(DeliveryStore store, SweepStore sweeps, TransactionTemplate tx) {
        this.store = store;
        this.sweeps = sweeps;
        this.tx = tx;
    }

    /** Dispatches what has finished; {@code schedule} schedules a delivery's task (in the caller's transaction). */
    void dispatch(Consumer<UUID> schedule) {
        store.dropDeleted();
        for (DeliveryStore.Finished f : store.finishedExperiments(BATCH)) {
            Instant at = f.finishedAt() == null ? Instant.now() : f.finishedAt();
            send(f.deliveryId(), CompletionEvent.of(f.deliveryId(), "experiment", f.subjectId(), f.status(), at), schedule);
        }
        for (DeliveryStore.Finished f : store.finishedSweeps(BATCH)) {
            SweepRow row = sweeps.find(f.subjectId()).orElse(null);
            if (row == null) {
                continue; // stored in the same transaction as its delivery: gone only with the database's rows
            }
            SweepStatus status = SweepStatus.of(row.total(), row.cancelRequested(), sweeps.statusCounts(row.id()));
            Instant at = row.finishedAt() == null ? Instant.now() : row.finishedAt();
            send(f.deliveryId(), CompletionEvent.of(f.deliveryId(), "sweep", row.id(), status.name(), at), schedule);
        }
    }

    private void send(UUID deliveryId, CompletionEvent event, Consumer<UUID> schedule) {
        String body = json.writeValueAsString(event);
        tx.executeWithoutResult(s -> {
            if (store.startSending(deliveryId, body)) {
                schedule.accept(deliveryId);
            }
        });
    }
}
