/** HTTP endpoints of recorded-trace import: the import itself and the replay's comparison with its record. */
package io.schedlab.traceimport.web;
