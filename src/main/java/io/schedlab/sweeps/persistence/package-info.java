/** Sweep rows and their links to child experiments, as plain SQL (JdbcTemplate joins the caller's transaction). */
package io.schedlab.sweeps.persistence;
