package io.schedlab.auth;

import io.schedlab.experiments.ExperimentAccess;
import io.schedlab.experiments.ExperimentAccessProvider;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;

/**
 * The caller's {@link ExperimentAccess} from the key {@link ApiKeyFilter} found: a submitter sees
 * its own experiments, readers and admins every one. Without keys (or outside a request) it is
 * {@link ExperimentAccess#OPEN}.
 */
class RequestExperimentAccess implements ExperimentAccessProvider {

    @Override
    public ExperimentAccess current() {
        RequestAttributes request = RequestContextHolder.getRequestAttributes();
        Object key = request == null ? null : request.getAttribute(ApiKeyFilter.KEY_ATTRIBUTE,
                RequestAttributes.SCOPE_REQUEST);
        if (key instanceof ApiKey k) {
            return new ExperimentAccess(k.name(), k.role().seesAll());
        }
        return ExperimentAccess.OPEN;
    }
}
