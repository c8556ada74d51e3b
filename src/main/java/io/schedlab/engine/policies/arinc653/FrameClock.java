package io.schedlab.engine.policies.arinc653;

import io.schedlab.engine.model.Vcpu;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the schedule stands in time, after a653sched_do_schedule (xen/common/sched/arinc653.c): the frame
 * index ({@code sched_index}), the next minor-frame switch ({@code next_switch_time}) and the next major frame
 * ({@code next_major_frame}, 0 at a653sched_init so the first call starts one). Shared by all pCPUs, as the
 * scheduler's one private structure is.
 */
final class FrameClock {
    private final List<Arinc653Schedule.Entry> entries = new ArrayList<>();
    /** The vCPU each minor frame names, null while it does not exist (update_schedule_units). */
    private final List<Vcpu> owners = new ArrayList<>();
    private long majorFrame;
    private long nextMajorFrame;
    private long nextSwitch;
    private int index;
    private long majorFrames;
    private long minorFrames;

    void install(List<Arinc653Schedule.Entry> schedule, long majorFrameNanos) {
        schedule.forEach(this::add);
        majorFrame = majorFrameNanos;
    }

    /** a653sched_alloc_udata for a domain-0 vCPU under the boot schedule: one more frame, a longer major frame. */
    void append(Arinc653Schedule.Entry e) {
        add(e);
        majorFrame += e.runtimeNanos();
    }

    private void add(Arinc653Schedule.Entry e) {
        entries.add(e);
        owners.add(null);
    }

    void bind(Vcpu v) {
        for (int i = 0; i < entries.size(); i++) {
            Arinc653Schedule.Entry e = entries.get(i);
            if (e.vm().equals(v.vm.name) && e.vcpu() == v.index) {
                owners.set(i, v);
            }
        }
    }

    void unbind(Vcpu v) {
        owners.replaceAll(o -> o == v ? null : o);
    }

    /** Moves the frame index to {@code now} as a653sched_do_schedule does, closing each frame it leaves. */
    void advanceTo(long now, FrameAccounts accounts) {
        int n = entries.size();
        if (n == 0) {
            accounts.close(now);
            nextMajorFrame = now + Arinc653Policy.DEFAULT_TIMESLICE_NANOS;
            index = 0;
            accounts.open(null, true, now);
        } else if (now >= nextMajorFrame) {
            accounts.close(now);
            index = 0;
            nextMajorFrame = now + majorFrame;
            nextSwitch = now + entries.get(0).runtimeNanos();
            majorFrames++;
            minorFrames++;
            accounts.open(owners.get(0), false, now);
        } else {
            while (now >= nextSwitch && index < n) {
                long boundary = nextSwitch;
                accounts.close(boundary);
                index++;
                if (index < n) {
                    nextSwitch += entries.get(index).runtimeNanos();
                    minorFrames++;
                }
                accounts.open(index < n ? owners.get(index) : null, index >= n, boundary);
            }
        }
        if (index >= n) {
            nextSwitch = nextMajorFrame; // the rest of the major frame idles
        }
    }

    /** The vCPU the current minor frame names (null: none, or the idle rest of the major frame). */
    Vcpu owner() {
        return index < entries.size() ? owners.get(index) : null;
    }

    /** When the frame changes next: the pCPU's timer ({@code prev->next_time = next_switch_time - now}). */
    long nextSwitchNanos() {
        return nextSwitch;
    }

    long majorFrames() {
        return majorFrames;
    }

    long minorFrames() {
        return minorFrames;
    }
}
