package io.schedlab.webhooks;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import org.junit.jupiter.api.Test;

/**
 * Webhooks sit on top of experiments and sweeps: those know only the NotifyTargets interface they
 * define, never the webhooks package, so no cycle runs through it; its domain knows no HTTP edge.
 */
class WebhooksDependencyTest {

    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.schedlab.experiments", "io.schedlab.sweeps", "io.schedlab.webhooks");

    @Test
    void experimentsAndSweepsDoNotDependOnWebhooks() {
        noClasses().that().resideInAnyPackage("io.schedlab.experiments..", "io.schedlab.sweeps..")
                .should().dependOnClassesThat().resideInAnyPackage("io.schedlab.webhooks..")
                .check(classes);
    }

    @Test
    void theWebhooksDomainKnowsNotItsWebPackage() {
        noClasses().that().resideInAPackage("io.schedlab.webhooks")
                .should().dependOnClassesThat().resideInAnyPackage("io.schedlab.webhooks.web..", "io.schedlab.web..")
                .check(classes);
    }

    @Test
    void noCycleAmongTheseFeatures() {
        SlicesRuleDefinition.slices().matching("io.schedlab.(*)..").should().beFreeOfCycles().check(classes);
    }
}
