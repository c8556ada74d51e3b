package io.schedlab.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;
import org.springframework.web.bind.annotation.RestController;

/** The experiments domain knows no HTTP; controllers are package-private and live in web packages. */
class ServiceLayeringTest {

    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.schedlab.experiments", "io.schedlab.web", "io.schedlab.results", "io.schedlab.sweeps",
                    "io.schedlab.reports");

    @Test
    void experimentsDomainAndPersistenceKnowNoHttp() {
        noClasses().that().resideInAnyPackage("io.schedlab.experiments", "io.schedlab.experiments.persistence")
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework.web..",
                        "org.springframework.http..", "jakarta.servlet..", "io.schedlab.web..",
                        "io.schedlab.experiments.web..", "io.schedlab.results..")
                .check(classes);
    }

    @Test
    void sweepsDomainAndPersistenceKnowNoHttp() {
        noClasses().that().resideInAnyPackage("io.schedlab.sweeps", "io.schedlab.sweeps.persistence")
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework.web..",
                        "org.springframework.http..", "jakarta.servlet..", "io.schedlab.web..",
                        "io.schedlab.sweeps.web..")
                .check(classes);
    }

    @Test
    void controllersArePackagePrivateInWebFacingPackages() {
        classes().that().areAnnotatedWith(RestController.class)
                .should().notBePublic()
                .andShould().resideInAnyPackage("..web..", "io.schedlab.results..")
                .check(classes);
    }

    @Test
    void persistenceIsNotUsedByTheWebEdge() {
        noClasses().that().resideInAnyPackage("io.schedlab.web..", "io.schedlab.results..")
                .should().dependOnClassesThat().resideInAnyPackage("io.schedlab.experiments.persistence..")
                .check(classes);
    }
}
