package io.schedlab.engine.policies.linux;

import io.schedlab.engine.model.Vm;
import io.schedlab.engine.params.InvalidParameterException;
import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Which cgroup (cpu controller, directly under the root) a host thread runs in: a host thread group's
 * {@code cgroup}, or a VM's {@code cgroup} scheduling parameter for its vCPU threads (libvirt puts a guest's
 * QEMU, vCPU and vhost threads under machine.slice); absent or empty, the root group, as without cgroups.
 */
final class TaskGroups {
    static final String CGROUP = "cgroup";
    /** A cgroup directory name: letters, digits, '.', '_' and '-', at most 64 characters. */
    static final int MAX_NAME = 64;
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0," + (MAX_NAME - 1) + "}");

    private TaskGroups() {
    }

    /** The per-VM scheduling parameter of the Linux policies. */
    static ParameterSpec vmSpec() {
        return ParameterSpec.text(CGROUP, "", MAX_NAME, "name",
                "the cgroup (cpu controller, a child of the root) the VM's vCPU threads run in; empty = the root"
                        + " group. A group's entity on each CPU competes with the root group's tasks with the"
                        + " weight calc_group_shares gives it",
                "kernel/sched/fair.c at v6.6: task_group, calc_group_shares, update_cfs_group; libvirt places a"
                        + " guest's threads under machine.slice");
    }

    /** A name that is not a cgroup directory name is refused. */
    static void check(Params p) {
        Object v = p.asMap().get(CGROUP);
        if (v instanceof String s && !s.isEmpty() && !NAME.matcher(s).matches()) {
            throw new InvalidParameterException(CGROUP, "must match " + NAME.pattern() + " (or be empty: the root)");
        }
    }

    /** The group of vm's threads, created on first use; null for the root group. */
    static TaskGroup groupOf(Vm vm, Params vmParams, Map<String, TaskGroup> groups, LinuxRq[] roots) {
        String name = vm.cgroup;
        if (name == null && vmParams != null && vmParams.asMap().get(CGROUP) instanceof String s) {
            name = s;
        }
        if (name == null || name.isEmpty()) {
            return null;
        }
        return groups.computeIfAbsent(name, n -> new TaskGroup(n, groups.size(), roots));
    }
}
