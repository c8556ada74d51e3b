package io.schedlab.web;

import java.io.IOException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tomcat's error report as problem+json instead of its HTML page. Tomcat answers some requests
 * itself, before any filter or servlet runs: paths with an encoded {@code /}, {@code \} or NUL,
 * invalid UTF-8 ({@code %ED%A0%80}), a request line or headers over the size limit, duplicate
 * Host headers. Those end here (see Tomcat's {@code CoyoteAdapter.postParseRequest}).
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    private static final Logger log = LoggerFactory.getLogger(ProblemErrorReportValve.class);

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        // as ErrorReportValve.report: only errors, only once, never over a body already written
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        ProblemKind kind = ProblemKind.forStatus(status);
        String detail = status >= 500 ? "an internal error occurred; it has been logged"
                : "the request was rejected before it reached the API: the request line, path or headers could not be"
                        + " parsed (an encoded '/', '\\\\' or NUL, invalid UTF-8, or a line over the size limit)";
        try {
            String uri = request.getDecodedRequestURI();
            ProblemWriter.write(response.getResponse(), kind, status, detail, ProblemWriter.safeInstance(uri), null);
        } catch (IOException | RuntimeException e) {
            log.debug("could not write the problem answer for a rejected request", e);
        }
    }
}
