package io.schedlab.auth;

import io.schedlab.access.CallerAccess;
import io.schedlab.access.CallerAccessProvider;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;

/**
 * The caller's {@link CallerAccess} from the key {@link ApiKeyFilter} found ({@link ApiKeyRole#access}).
 * Without keys (or outside a request) it is {@link CallerAccess#OPEN}.
 */
class RequestCallerAccess implements CallerAccessProvider {

    private final boolean readersSeeAll;

    RequestCallerAccess(boolean readersSeeAll) {
        this.readersSeeAll = readersSeeAll;
    }

    @Override
    public CallerAccess current() {
        RequestAttributes request = RequestContextHolder.getRequestAttributes();
        Object key = request == null ? null : request.getAttribute(ApiKeyFilter.KEY_ATTRIBUTE,
                RequestAttributes.SCOPE_REQUEST);
        if (key instanceof ApiKey k) {
            return k.role().access(k.name(), readersSeeAll);
        }
        return CallerAccess.OPEN;
    }
}
