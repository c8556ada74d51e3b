package io.schedlab.sweeps.web;

import io.schedlab.engine.sweepgrid.InvalidSweepException;
import io.schedlab.engine.sweepgrid.SweepViolation;
import io.schedlab.sweeps.SweepNotFoundException;
import io.schedlab.web.ProblemDetailsAdvice;
import io.schedlab.web.ProblemKind;
import jakarta.servlet.http.HttpServletRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * RFC 9457 problems of the sweeps API: {@code invalid-sweep} (422) lists
 * {@code errors: [{pointer, message, cell?, cellIndex?, experimentPointer?}]} with the total in
 * {@code totalErrors}; an unknown sweep is {@code not-found}. Before the general advice, whose
 * catch-all would take these otherwise.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
class SweepProblemAdvice {

    @ExceptionHandler(InvalidSweepException.class)
    ResponseEntity<ProblemDetail> invalid(InvalidSweepException e, HttpServletRequest request) {
        List<SweepViolation> vs = e.violations();
        SweepViolation first = vs.get(0);
        String where = (first.cell() == null ? "" : "cell '" + first.cell() + "' (index " + first.cellIndex() + "), ")
                + (first.pointer().isEmpty() ? "(document)" : first.pointer()) + ": " + first.message();
        String detail = e.total() == 1 ? where : e.total() + " problems, first: " + where;
        ProblemDetail p = ProblemDetailsAdvice.problem(ProblemKind.INVALID_SWEEP, detail, request);
        p.setProperty("errors", vs.stream().map(SweepProblemAdvice::error).toList());
        p.setProperty("totalErrors", e.total());
        return ProblemDetailsAdvice.respond(p, null);
    }

    @ExceptionHandler(SweepNotFoundException.class)
    ResponseEntity<ProblemDetail> notFound(SweepNotFoundException e, HttpServletRequest request) {
        return ProblemDetailsAdvice.respond(ProblemDetailsAdvice.problem(ProblemKind.NOT_FOUND, e.getMessage(), request),
                null);
    }

    private static Map<String, Object> error(SweepViolation v) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("pointer", v.pointer());
        out.put("message", v.message());
        if (v.cell() != null) {
            out.put("cell", v.cell());
            out.put("cellIndex", v.cellIndex());
            out.put("experimentPointer", v.experimentPointer());
        }
        return out;
    }
}
