package io.schedlab.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** No package depends on itself through others: each package is one slice, in the engine and in the service. */
class PackageCyclesTest {

    @Test
    void enginePackagesAreFreeOfCycles() {
        JavaClasses engine = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.schedlab.engine");
        slices().matching("io.schedlab.(**)").should().beFreeOfCycles().check(engine);
    }

    @Test
    void everyPackageIsFreeOfCycles() {
        JavaClasses all = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.schedlab");
        slices().matching("io.schedlab.(**)").should().beFreeOfCycles().check(all);
    }
}
