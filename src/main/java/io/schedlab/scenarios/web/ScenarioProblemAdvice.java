package io.schedlab.scenarios.web;

import io.schedlab.web.ProblemDetailsAdvice;
import io.schedlab.web.ProblemKind;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** An unknown scenario is {@code not-found} (before the general advice's catch-all). */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
class ScenarioProblemAdvice {

    @ExceptionHandler(ScenarioNotFoundException.class)
    ResponseEntity<ProblemDetail> notFound(ScenarioNotFoundException e, HttpServletRequest request) {
        return ProblemDetailsAdvice.respond(ProblemDetailsAdvice.problem(ProblemKind.NOT_FOUND, e.getMessage(), request),
                null);
    }
}
