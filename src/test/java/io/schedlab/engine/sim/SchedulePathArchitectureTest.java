package io.schedlab.engine.sim;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.VcpuStateMachine;
import io.schedlab.engine.policies.DirectedYield;
import io.schedlab.engine.policies.SchedulerPolicy;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The engine's structure: the hypervisor's schedule path is the only caller of the policy's hooks and the
 * only writer of vCPU states and {@code Pcpu.current} (core scheduling, its inner policy's path, writes its
 * units' and resources' own), and result building and the self-check read the run only through
 * {@link RunView}; the simulator's own state is private.
 */
class SchedulePathArchitectureTest {
    private static final JavaClasses ENGINE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.schedlab");
    /** The hooks of SchedulerPolicy (xen/common/sched/private.h struct scheduler) and DirectedYield. */
    private static final Set<String> HOOKS = Set.of("init", "addVcpu", "removeVcpu", "pickCpu", "wake", "sleep",
            "doSchedule", "contextSaved", "yield", "affinityChanged", "schedParamsChanged", "domainParamsChanged",
            "yieldTo");
    /** Policies may delegate to an inner policy (core scheduling wraps credit and credit2). */
    private static final String POLICIES = "io.schedlab.engine.policies";

    @Test
    void onlyTheSchedulePathCallsPolicyHooks() {
        Set<String> callers = new TreeSet<>();
        for (JavaClass c : ENGINE) {
            if (c.getPackageName().startsWith(POLICIES)) {
                continue;
            }
            for (JavaMethodCall call : c.getMethodCallsFromSelf()) {
                if (isHook(call)) {
                    callers.add(c.getName());
                }
            }
        }
        assertThat(callers).as("classes outside the policies that call a policy hook")
                .containsExactlyInAnyOrder(SchedulePath.class.getName(), XenSchedulePath.class.getName());
    }

    /** Inside the policies a hook is called through the interface only where core scheduling delegates to its inner policy. */
    @Test
    void onlyCoreSchedulingCallsAnotherPolicysHooks() {
        Set<String> callers = new TreeSet<>();
        for (JavaClass c : ENGINE) {
            for (JavaMethodCall call : c.getMethodCallsFromSelf()) {
                JavaClass owner = call.getTargetOwner();
                if (HOOKS.contains(call.getName())
                        && (owner.isEquivalentTo(SchedulerPolicy.class) || owner.isEquivalentTo(DirectedYield.class))) {
                    callers.add(c.getName());
                }
            }
        }
        assertThat(callers).as("classes that call a hook through the policy interfaces")
                .containsExactlyInAnyOrder(SchedulePath.class.getName(), XenSchedulePath.class.getName(),
                        POLICIES + ".coresched.UnitScheduler");
    }

    /**
     * Only the schedule path changes a vCPU's state or what a pCPU runs. Core scheduling is its inner policy's
     * schedule path (core.c's units in Xen): its unit (SchedUnit) changes its own state and its resource
     * (SchedResource) what the resource's pCPU runs, both objects only the inner policy sees.
     */
    @Test
    void onlyTheSchedulePathsMoveVcpuStatesAndSetWhatAPcpuRuns() {
        Set<String> movers = new TreeSet<>();
        Set<String> pcpuWriters = new TreeSet<>();
        for (JavaClass c : ENGINE) {
            for (JavaMethodCall call : c.getMethodCallsFromSelf()) {
                if (call.getTargetOwner().isEquivalentTo(VcpuStateMachine.class) && call.getName().equals("move")) {
                    movers.add(c.getName());
                }
            }
            for (JavaFieldAccess access : c.getFieldAccessesFromSelf()) {
                if (access.getAccessType() == JavaFieldAccess.AccessType.SET
                        && access.getTargetOwner().isEquivalentTo(Pcpu.class) && access.getName().equals("current")) {
                    pcpuWriters.add(c.getName());
                }
            }
        }
        assertThat(movers).as("classes that change a vCPU's state")
                .containsExactlyInAnyOrder(SchedulePath.class.getName(), POLICIES + ".coresched.SchedUnit");
        assertThat(pcpuWriters).as("classes that set a pCPU's current vCPU")
                .containsExactlyInAnyOrder(SchedulePath.class.getName(), POLICIES + ".coresched.SchedResource");
    }

    @Test
    void resultBuildingAndSelfCheckReadTheRunOnlyThroughItsView() {
        DescribedPredicate<JavaFieldAccess> simulatorState = DescribedPredicate.describe("a field of the run's owners",
                a -> a.getTargetOwner().isEquivalentTo(Simulator.class)
                        || a.getTargetOwner().isAssignableTo(SchedulePath.class)
                        || a.getTargetOwner().isEquivalentTo(RunTables.class));
        DescribedPredicate<JavaMethodCall> simulatorCall = DescribedPredicate.describe(
                "a method of the simulator other than view() or of the path or the tables",
                c -> (c.getTargetOwner().isEquivalentTo(Simulator.class) && !c.getName().equals("view"))
                        || c.getTargetOwner().isAssignableTo(SchedulePath.class)
                        || c.getTargetOwner().isEquivalentTo(RunTables.class));
        DescribedPredicate<JavaFieldAccess> foreignWrite = DescribedPredicate.describe("a write to another class's field",
                a -> a.getAccessType() == JavaFieldAccess.AccessType.SET
                        && !a.getTargetOwner().getName().equals(a.getOriginOwner().getName()));
        noClasses().that().belongToAnyOf(ResultBuilder.class, SelfCheck.class)
                .should().accessFieldWhere(simulatorState)
                .orShould().callMethodWhere(simulatorCall)
                .orShould().accessFieldWhere(foreignWrite)
                .check(ENGINE);
        assertThat(ENGINE.get(ResultBuilder.class).getMethodCallsFromSelf())
                .as("ResultBuilder reads the view").anyMatch(c -> c.getTargetOwner().isEquivalentTo(RunView.class));
        assertThat(ENGINE.get(SelfCheck.class).getMethodCallsFromSelf())
                .as("SelfCheck reads the view").anyMatch(c -> c.getTargetOwner().isEquivalentTo(RunView.class));
    }

    /**
     * The simulator keeps the clock and the event dispatch: its state is private, so no other class assigns
     * its clock, event count or parts; they read them through its accessors or the view.
     */
    @Test
    void simulatorStateIsPrivate() {
        fields().that().areDeclaredIn(Simulator.class).and().areNotStatic().should().bePrivate()
                .check(ENGINE);
        assertThat(ENGINE.get(Simulator.class).getFields()).as("the simulator's instance fields")
                .anyMatch(f -> !f.getModifiers().contains(JavaModifier.STATIC));
    }

    private static boolean isHook(JavaMethodCall call) {
        JavaClass owner = call.getTargetOwner();
        return HOOKS.contains(call.getName())
                && (owner.isAssignableTo(SchedulerPolicy.class) || owner.isAssignableTo(DirectedYield.class));
    }
}
