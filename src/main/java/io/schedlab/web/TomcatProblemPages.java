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
 * customizers so the valve it adds is found and removed.
 */
@Component
class TomcatProblemPages implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
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
