package io.schedlab.web;

import org.apache.catalina.Container;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;

/**
 * Replaces the embedded Tomcat host's {@link ErrorReportValve} (Spring Boot adds one, Tomcat adds
 * its default otherwise) with {@link ProblemErrorReportValve}. Runs after Spring Boot's own
 * customizers so the valve it adds is found and removed. Lets TRACE through the connector to
 * {@link RequestSanityFilter}, which refuses it (405) with the path's own Allow header.
 */
@Component
class TomcatProblemPages implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        // TRACE reaches RequestSanityFilter, which refuses it with the path's own Allow; refused by the
        // connector (allowTrace=false, CoyoteAdapter.postParseRequest) it would list every method the
        // DispatcherServlet overrides, PUT among them, which the API answers 405
        factory.addConnectorCustomizers(connector -> connector.setAllowTrace(true));
        factory.addContextCustomizers(context -> {
            Container host = context.getParent();
            for (Valve valve : host.getPipeline().getValves()) {
                if (valve instanceof ErrorReportValve && !(valve instanceof ProblemErrorReportValve)) {
                    host.getPipeline().removeValve(valve);
                }
            }
            if (host instanceof StandardHost standard) {
                standard.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
            } else {
                host.getPipeline().addValve(new ProblemErrorReportValve());
            }
        });
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
