package io.schedlab.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * No package depends on itself through others: each package is one slice, in the engine and in the service. And no
 * engine package shares its last name with a service package, so a name says which side it is on.
 */
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

    @Test
    void noEnginePackageIsNamedLikeAServicePackage() {
        JavaClasses all = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.schedlab");
        Set<String> engine = new TreeSet<>();
        Set<String> service = new TreeSet<>();
        for (JavaClass c : all) {
            String pkg = c.getPackageName();
            String last = pkg.substring(pkg.lastIndexOf('.') + 1);
            (pkg.startsWith("io.schedlab.engine.") ? engine : service).add(last);
        }
        engine.retainAll(service);
        assertThat(engine).as("engine packages named like a service package").isEmpty();
    }
}
