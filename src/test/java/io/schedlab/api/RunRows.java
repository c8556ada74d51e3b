package io.schedlab.api;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** Plain JDBC reads of the experiments table for the replica-kill tests (independent of the service's code). */
final class RunRows {
    private RunRows() {
    }

    /** id -> {status, has result, run_by, finished_at} of the rows {@code sql} selects in that column order. */
    static Map<String, String[]> runs(Connection c, String sql) throws Exception {
        Map<String, String[]> out = new HashMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                Timestamp finished = rs.getTimestamp(5);
                out.put(rs.getString(1), new String[] {rs.getString(2), String.valueOf(rs.getBoolean(3)),
                        rs.getString(4), finished == null ? null : finished.toInstant().toString()});
            }
        }
        return out;
    }

    /** The first column of every row {@code sql} selects. */
    static Set<String> strings(Connection c, String sql) throws Exception {
        Set<String> out = new HashSet<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    /** The single number {@code sql} selects. */
    static long count(Connection c, String sql) throws Exception {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
