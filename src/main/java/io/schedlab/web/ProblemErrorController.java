package io.schedlab.web;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.RequestMapping;

/**
 * The servlet error page ({@code /error}) as problem+json, replacing Spring Boot's JSON/HTML
 * error view: errors raised outside the MVC advice (filters, the container) keep the API's error
 * shape, and a direct request of {@code /error} is simply not found.
 */
@Controller
public class ProblemErrorController implements ErrorController {

    @RequestMapping("${server.error.path:/error}")
    void error(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        Object uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        String instance = ProblemWriter.safeInstance(uri instanceof String s ? s : request.getRequestURI());
        if (!(code instanceof Integer status)) {
            ProblemWriter.write(response, ProblemKind.NOT_FOUND, "no resource here", instance, null);
            return;
        }
        ProblemKind kind = ProblemKind.forStatus(status);
        String detail = status >= 500 ? "an internal error occurred; it has been logged"
                : "the request was rejected (" + status + ")";
        // the container's status is kept even where it has no kind of its own (e.g. 414)
        ProblemWriter.write(response, kind, status, detail, instance, null);
    }
}
