package io.schedlab.engine.policies.arinc653;

import io.schedlab.engine.model.Vcpu;
import java.util.Arrays;

/**
 * Frame statistics: per minor frame, the time its vCPU did not run (slack, idled as a653sched_do_schedule
 * idles a frame whose vCPU is not awake), and the idle rest of each major frame after its last minor frame.
 */
final class FrameAccounts {
    private Vcpu[] current = new Vcpu[0];
    private long[] since = new long[0];
    private long[] slackByUid = new long[16];
    private long slackTotal;
    private long unallocated;
    private Vcpu owner;
    private boolean tail;
    private long start;
    private long ownerRan;
    private boolean open;

    void init(int pcpus) {
        current = new Vcpu[pcpus];
        since = new long[pcpus];
    }

    /** A segment begins at {@code t}: a minor frame of {@code frameOwner} or, when {@code idleTail}, the rest. */
    void open(Vcpu frameOwner, boolean idleTail, long t) {
        owner = frameOwner;
        tail = idleTail;
        start = t;
        ownerRan = 0;
        open = true;
    }

    /** The segment ends at {@code t}: its slack or idle time is booked. */
    void close(long t) {
        if (!open) {
            return;
        }
        long length = t - start;
        if (tail) {
            unallocated += length;
        } else {
            for (int p = 0; p < current.length; p++) {
                if (owner != null && current[p] == owner) {
                    ownerRan += t - Math.max(since[p], start);
                }
            }
            long slack = Math.max(0, length - ownerRan);
            slackTotal += slack;
            if (owner != null) {
                grow(owner.uid);
                slackByUid[owner.uid] += slack;
            }
        }
        open = false;
    }

    /** pCPU p runs {@code next} from {@code now} on (null: idle). */
    void switched(int p, Vcpu next, long now) {
        if (current[p] == next) {
            return;
        }
        if (open && !tail && owner != null && current[p] == owner) {
            ownerRan += now - Math.max(since[p], start);
        }
        current[p] = next;
        since[p] = now;
    }

    /** Books the open segment up to {@code now} and reopens it there, for statistics read mid-frame. */
    void settle(long now) {
        if (!open) {
            return;
        }
        Vcpu o = owner;
        boolean t = tail;
        close(now);
        open(o, t, now);
    }

    long slackTotal() {
        return slackTotal;
    }

    long slackOf(Vcpu v) {
        return v.uid < slackByUid.length ? slackByUid[v.uid] : 0;
    }

    long unallocatedNanos() {
        return unallocated;
    }

    private void grow(int uid) {
        if (uid >= slackByUid.length) {
            slackByUid = Arrays.copyOf(slackByUid, Math.max(uid + 1, 2 * slackByUid.length));
        }
    }
}
