package io.schedlab.engine.policies.arinc653;

import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.policies.Decision;
import io.schedlab.engine.policies.SchedulerContext;
import io.schedlab.engine.policies.SelfCheckAssumptions;
import io.schedlab.engine.policies.SingleRunqueue;
import io.schedlab.engine.policies.xen.XenInsert;
import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.registry.StatisticSpec;
import java.util.List;
import java.util.Map;

/**
 * Xen's ARINC 653 scheduler after xen/common/sched/arinc653.c: a fixed major frame of minor frames, each
 * owned by one vCPU. a653sched_do_schedule walks the frames by time (a new major frame when {@code now}
 * reaches {@code next_major_frame}, else the next minor frame once {@code next_switch_time} passed) and runs
 * the frame's vCPU only when it is awake and sits on this pCPU; every other pCPU, a frame whose vCPU sleeps
 * and the major-frame time after the last minor frame idle. The timer is the next switch time. Nothing is
 * ever balanced or migrated (a653sched_pick_resource keeps the vCPU's processor); one lock for the whole
 * scheduler (a653sched_priv_t.lock).
 */
public final class Arinc653Policy implements SingleRunqueue, SelfCheckAssumptions {

    public static final String NAME = "arinc653";
    /** Minor frame of each domain-0 vCPU in the boot schedule: DEFAULT_TIMESLICE, MILLISECS(10). */
    static final long DEFAULT_TIMESLICE_NANOS = 10_000_000L;

    static final String STAT_MAJOR = "majorFrames";
    static final String STAT_MINOR = "minorFrames";
    static final String STAT_SLACK = "slackNanos";
    static final String STAT_UNALLOCATED = "unallocatedNanos";

    private final Arinc653Schedule given;
    private final FrameClock clock = new FrameClock();
    private final FrameAccounts accounts = new FrameAccounts();
    private SchedulerContext ctx;
    /** Per vCPU uid: woken and not yet picked or running (a653 "awake" and runnable, not current). */
    private boolean[] queued = new boolean[16];

    public Arinc653Policy(Arinc653Schedule schedule) {
        this.given = schedule;
    }

    /** Registry entry: name "arinc653", the schedule and the major frame. */
    public static PolicyDescriptor descriptor() {
        return new PolicyDescriptor(NAME,
                "Xen ARINC 653: a fixed major frame of minor frames, each owned by one vCPU; unused frame time idles",
                List.of(ParameterSpec.text(Arinc653Schedule.SCHEDULE, "", 8192, null,
                                "minor frames in order, VM:VCPU:RUNTIME_US separated by commas (at most 64); empty ="
                                        + " Xen's boot schedule, every vCPU of the first VM for 10 ms",
                                "xen/common/sched/arinc653.c: sched_entry_t, arinc653_sched_set, a653sched_alloc_udata"),
                        ParameterSpec.integer(Arinc653Schedule.MAJOR_FRAME, 0, 0, Arinc653Schedule.MAX_MAJOR_FRAME_US,
                                "us", "major frame; 0 = the sum of the minor frames (no idle tail)",
                                "xen/common/sched/arinc653.c: a653sched_priv_t.major_frame, arinc653_sched_set")),
                p -> new Arinc653Policy(Arinc653Schedule.from(p)))
                .withStatistics(List.of(
                        StatisticSpec.run(STAT_MAJOR, "count", "major frames started"),
                        StatisticSpec.run(STAT_MINOR, "count", "minor frames entered"),
                        StatisticSpec.runAndVcpu(STAT_SLACK, "ns",
                                "time of a vCPU's own minor frames it did not run (asleep or blocked): its pCPU idled"),
                        StatisticSpec.run(STAT_UNALLOCATED, "ns",
                                "major-frame time after the last minor frame, idle on every pCPU")))
                .with(new Arinc653Rules())
                .with((XenInsert) v -> null); // no insert_unit hook: a vCPU stays where creation put it
    }

    @Override
    public void init(SchedulerContext context) {
        this.ctx = context;
        accounts.init(context.topology().size());
        clock.install(given.entries(), given.majorFrameNanos());
    }

    /** a653sched_alloc_udata: the boot schedule gives each domain-0 vCPU a frame; frames find their vCPU. */
    @Override
    public void addVcpu(Vcpu v) {
        if (given.isBootSchedule() && v.vm.id == 0) {
            clock.append(new Arinc653Schedule.Entry(v.vm.name, v.index, DEFAULT_TIMESLICE_NANOS));
        }
        clock.bind(v);
    }

    /** a653sched_free_udata: the vCPU's frames idle from now on. */
    @Override
    public void removeVcpu(Vcpu v) {
        clock.unbind(v);
        flag(v, false);
    }

    /** a653sched_pick_resource: the vCPU's own processor (here within its hard affinity). */
    @Override
    public int pickCpu(Vcpu v) {
        return v.allowedOn(v.processor) ? v.processor : v.hardAffinity.nextSetBit(0);
    }

    /** a653sched_unit_wake: awake, and a schedule softirq on its pCPU. */
    @Override
    public void wake(Vcpu v) {
        flag(v, true);
        ctx.tickle(v.processor);
    }

    /** a653sched_unit_sleep: not awake (the simulator reschedules its pCPU when it was running). */
    @Override
    public void sleep(Vcpu v) {
        flag(v, false);
    }

    @Override
    public Decision doSchedule(Pcpu p, Vcpu prev, boolean prevYielded) {
        long now = ctx.now();
        clock.advanceTo(now, accounts);
        Vcpu owner = clock.owner();
        Vcpu next = null;
        if (owner != null && owner.processor == p.id && owner.allowedOn(p.id)) {
            if (owner == prev && prev.state == VcpuState.RUNNING) {
                next = prev;
            } else if (owner.uid < queued.length && queued[owner.uid] && owner.state == VcpuState.RUNNABLE) {
                queued[owner.uid] = false;
                next = owner;
            }
        }
        accounts.switched(p.id, next, now);
        return new Decision(next, clock.nextSwitchNanos() - now);
    }

    /** arinc653 has no context_saved hook: a switched-out vCPU still awake runs again in its next frame. */
    @Override
    public void contextSaved(Vcpu prev) {
        if (prev.state == VcpuState.RUNNABLE) {
            flag(prev, true);
        }
    }

    @Override
    public Map<String, Long> statistics() {
        accounts.settle(ctx.now());
        return Map.of(STAT_MAJOR, clock.majorFrames(), STAT_MINOR, clock.minorFrames(), STAT_SLACK,
                accounts.slackTotal(), STAT_UNALLOCATED, accounts.unallocatedNanos());
    }

    @Override
    public Map<String, Long> statistics(Vcpu v) {
        accounts.settle(ctx.now());
        return Map.of(STAT_SLACK, accounts.slackOf(v));
    }

    /** Frames idle by design while their vCPU sleeps, and other pCPUs idle: never work conserving. */
    @Override
    public boolean workConserving() {
        return false;
    }

    private void flag(Vcpu v, boolean value) {
        if (v.uid >= queued.length) {
            queued = java.util.Arrays.copyOf(queued, Math.max(v.uid + 1, 2 * queued.length));
        }
        queued[v.uid] = value;
    }
}
