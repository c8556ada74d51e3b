/** The scenarios API: list E1..E5, read one with its tables as sweep definitions, run them as sweeps. */
package io.schedlab.scenarios.web;
