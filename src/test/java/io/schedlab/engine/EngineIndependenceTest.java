package io.schedlab.engine;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The engine is plain Java: nothing from Spring, nothing from the service packages. */
class EngineIndependenceTest {
    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.schedlab");

    @Test
    void engineImportsNothingFromSpring() {
        noClasses().that().resideInAPackage("io.schedlab.engine..")
                .should().dependOnClassesThat().resideInAPackage("org.springframework..")
                .check(classes);
    }

    @Test
    void engineImportsNothingFromTheService() {
        noClasses().that().resideInAPackage("io.schedlab.engine..")
                .should().dependOnClassesThat(JavaClass.Predicates.resideInAPackage("io.schedlab..")
                        .and(JavaClass.Predicates.resideOutsideOfPackage("io.schedlab.engine..")))
                .check(classes);
    }
}
