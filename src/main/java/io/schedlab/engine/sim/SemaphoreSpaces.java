package io.schedlab.engine.sim;

import io.schedlab.engine.spec.HostThreadSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which runs share one set of semaphores: host thread groups and the guests they serve, joined transitively (QEMU
 * hands each vhost worker its guest queue's eventfds, VHOST_SET_VRING_KICK and VHOST_SET_VRING_CALL in
 * drivers/vhost/vhost.c vhost_vring_ioctl, so a guest's kick wakes the worker and the worker's signal reaches the
 * guest; two guests on one host bridge meet in the workers that move data between them); every other VM keeps its
 * own. A space is named by its smallest member name. Looked up by name only, never iterated.
 */
final class SemaphoreSpaces {
    /** Union-find parent of each name in some serves relation. */
    private final Map<String, String> parent = new HashMap<>();
    private final Map<String, Map<Integer, GuestSemaphore>> spaces = new HashMap<>();

    SemaphoreSpaces(List<HostThreadSpec> groups) {
        for (HostThreadSpec g : groups) {
            if (g.serves() != null) {
                for (String vm : g.serves()) {
                    union(g.name(), vm);
                }
            }
        }
    }

    private void union(String a, String b) {
        String ra = spaceOf(a);
        String rb = spaceOf(b);
        if (!ra.equals(rb)) {
            // the smaller name becomes the root: the same spaces whatever the order of the groups
            if (ra.compareTo(rb) < 0) {
                parent.put(rb, ra);
            } else {
                parent.put(ra, rb);
            }
        }
    }

    /** The name of the space the run of this name uses: its own unless a serves relation joins it to others. */
    String spaceOf(String runName) {
        String r = runName;
        String p = parent.get(r);
        while (p != null) {
            r = p;
            p = parent.get(r);
        }
        return r;
    }

    /** True when the run shares its semaphores with other runs. */
    boolean shared(String runName) {
        return parent.containsKey(runName) || parent.containsValue(runName);
    }

    /** The semaphores of the run of this name (created empty on first use, shared within a space). */
    Map<Integer, GuestSemaphore> of(String runName) {
        return spaces.computeIfAbsent(spaceOf(runName), k -> new HashMap<>());
    }
}
