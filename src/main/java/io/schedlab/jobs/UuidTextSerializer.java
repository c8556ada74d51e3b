package io.schedlab.jobs;

import com.github.kagkarlsson.scheduler.serializer.Serializer;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/** Stores a job's data (the experiment id) as readable UTF-8 text in {@code scheduled_tasks.task_data}. */
final class UuidTextSerializer implements Serializer {

    @Override
    public byte[] serialize(Object data) {
        if (data == null) {
            return null;
        }
        if (!(data instanceof UUID)) {
            throw new IllegalArgumentException("job data must be a UUID, was " + data.getClass().getName());
        }
        return data.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public <T> T deserialize(Class<T> type, byte[] serialized) {
        if (serialized == null) {
            return null;
        }
        if (type != UUID.class) {
            throw new IllegalArgumentException("job data type must be UUID, was " + type.getName());
        }
        return type.cast(UUID.fromString(new String(serialized, StandardCharsets.UTF_8)));
    }
}
