package io.schedlab.engine.model;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class VcpuStateMachineTest {

    private static Vcpu vcpuIn(VcpuState state) {
        Vcpu v = new Vcpu(new Vm(0, "vm", 256, 0, 1, 0), 0, 0, 0);
        switch (state) {
            case OFFLINE -> {
            }
            case BLOCKED -> VcpuStateMachine.move(v, VcpuState.BLOCKED);
            case RUNNABLE -> {
                VcpuStateMachine.move(v, VcpuState.BLOCKED);
                VcpuStateMachine.move(v, VcpuState.RUNNABLE);
            }
            case RUNNING -> {
                VcpuStateMachine.move(v, VcpuState.BLOCKED);
                VcpuStateMachine.move(v, VcpuState.RUNNABLE);
                VcpuStateMachine.move(v, VcpuState.RUNNING);
            }
        }
        assertThat(v.state).isEqualTo(state);
        return v;
    }

    @Test
    void exactlyTheRunstateEdgesOfTheSchedulePathAreLegal() {
        assertThat(VcpuStateMachine.successors(VcpuState.OFFLINE)).containsExactly(VcpuState.BLOCKED);
        assertThat(VcpuStateMachine.successors(VcpuState.BLOCKED))
                .containsExactlyInAnyOrder(VcpuState.RUNNABLE, VcpuState.OFFLINE);
        assertThat(VcpuStateMachine.successors(VcpuState.RUNNABLE))
                .containsExactlyInAnyOrder(VcpuState.RUNNING, VcpuState.BLOCKED);
        assertThat(VcpuStateMachine.successors(VcpuState.RUNNING))
                .containsExactlyInAnyOrder(VcpuState.RUNNABLE, VcpuState.BLOCKED);
    }

    @Test
    void everyLegalMoveChangesTheStateAndEveryOtherThrowsNamingFromAndTo() {
        int legal = 0;
        for (VcpuState from : VcpuState.values()) {
            Set<VcpuState> next = VcpuStateMachine.successors(from);
            for (VcpuState to : VcpuState.values()) {
                Vcpu v = vcpuIn(from);
                assertThat(VcpuStateMachine.isLegal(from, to)).isEqualTo(next.contains(to));
                if (next.contains(to)) {
                    VcpuStateMachine.move(v, to);
                    assertThat(v.state).isEqualTo(to);
                    legal++;
                } else {
                    assertThatThrownBy(() -> VcpuStateMachine.move(v, to))
                            .isInstanceOf(IllegalStateException.class)
                            .hasMessageContaining("vm.v0")
                            .hasMessageContaining(from + " -> " + to);
                    assertThat(v.state).as("a refused move leaves the state").isEqualTo(from);
                }
            }
        }
        assertThat(legal).isEqualTo(7);
    }

    @Test
    void noVcpuSkipsBlockedOnItsWayOnOrOffline() {
        for (VcpuState s : EnumSet.of(VcpuState.RUNNABLE, VcpuState.RUNNING)) {
            assertThat(VcpuStateMachine.isLegal(VcpuState.OFFLINE, s)).isFalse();
            assertThat(VcpuStateMachine.isLegal(s, VcpuState.OFFLINE)).isFalse();
        }
        assertThat(VcpuStateMachine.isLegal(VcpuState.BLOCKED, VcpuState.RUNNING)).as("a wake queues first").isFalse();
    }

    @Test
    void onlyTheStateMachineWritesTheStateField() {
        JavaClasses engine = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.schedlab");
        noClasses().that().doNotHaveFullyQualifiedName(VcpuStateMachine.class.getName())
                .and().doNotHaveFullyQualifiedName(Vcpu.class.getName()) // its initial OFFLINE
                .should().setField(Vcpu.class, "state")
                .because("vCPU states change only through VcpuStateMachine.move")
                .check(engine);
    }
}
