package io.schedlab.web;

import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.server.PathContainer;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * The HTTP methods the service serves at a path, read from its request mappings (the API's
 * controllers and the actuator's endpoints), for an {@code Allow} header that lists only what a
 * request would be served with. A path no mapping has is a static resource: GET and HEAD. HEAD
 * goes with GET, and OPTIONS is always served (Spring MVC answers it from the same mappings).
 */
public class ServedMethods {

    private final ObjectProvider<RequestMappingInfoHandlerMapping> mappings;

    /** The mappings are looked up when first asked (filters are made before the mappings exist). */
    public ServedMethods(ObjectProvider<RequestMappingInfoHandlerMapping> mappings) {
        this.mappings = mappings;
    }

    /** The methods served at {@code path} (the request URI without query), as an Allow header value. */
    public String allowHeader(String path) {
        return String.join(", ", at(path));
    }

    /** The methods served at {@code path}, sorted. */
    public Set<String> at(String path) {
        PathContainer container = PathContainer.parsePath(path == null ? "/" : path);
        Set<String> methods = new TreeSet<>();
        boolean mapped = false;
        for (RequestMappingInfoHandlerMapping mapping : (Iterable<RequestMappingInfoHandlerMapping>) mappings.orderedStream()::iterator) {
            for (RequestMappingInfo info : mapping.getHandlerMethods().keySet()) {
                if (matches(info.getPatternValues(), container)) {
                    mapped = true;
                    info.getMethodsCondition().getMethods().stream().map(RequestMethod::name).forEach(methods::add);
                }
            }
        }
        if (!mapped || methods.isEmpty()) {
            methods.add("GET");
        }
        if (methods.contains("GET")) {
            methods.add("HEAD");
        }
        methods.add("OPTIONS");
        methods.remove("TRACE");
        return methods;
    }

    private static boolean matches(Collection<String> patterns, PathContainer path) {
        for (String pattern : patterns) {
            try {
                if (PathPatternParser.defaultInstance.parse(pattern).matches(path)) {
                    return true;
                }
            } catch (RuntimeException unparsable) {
                // a pattern of another syntax (none today) cannot claim the path
            }
        }
        return false;
    }
}
