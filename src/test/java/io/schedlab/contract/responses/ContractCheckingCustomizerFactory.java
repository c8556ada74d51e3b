package io.schedlab.contract.responses;

import java.util.List;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Adds {@link ContractCheckingFilter} to every Spring test application context (MockMvc and real
 * servers alike); registered in src/test/resources/META-INF/spring.factories.
 */
public class ContractCheckingCustomizerFactory implements ContextCustomizerFactory {

    @Override
    public ContextCustomizer createContextCustomizer(Class<?> testClass, List<ContextConfigurationAttributes> attributes) {
        return new AddFilter();
    }

    /** Registers the filter bean; all instances are equal so contexts stay cached across test classes. */
    private static final class AddFilter implements ContextCustomizer {

        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
            context.getBeanFactory().registerSingleton("contractCheckingFilter",
                    new ContractCheckingFilter(OpenApiResponseValidator.forContractFile()));
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof AddFilter;
        }

        @Override
        public int hashCode() {
            return AddFilter.class.hashCode();
        }
    }
}
