package io.schedlab.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.schedlab.engine.Engine;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.registry.Registry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A policy is its package plus one registry line: validation, admission and the simulator reach a policy only
 * through its descriptor and the policy interfaces, and the runners of the tests iterate the registry.
 */
class PolicySeamTest {
    private static final Registry REGISTRY = Engine.standard().registry();
    /** Engine packages that must know no policy by name. */
    private static final List<String> NAME_FREE = List.of("spec", "admission", "sim");
    /** Test runners that iterate the registry instead of naming policies. */
    private static final List<String> RUNNERS = List.of("GoldenRunsTest.java", "BadInputProperties.java",
            "CoreSchedulingProperties.java", "RandomSpecs.java");

    @Test
    void validationAdmissionAndSimulatorDependOnNoPolicyImplementation() {
        JavaClasses engine = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.schedlab.engine");
        List<String> implementations = new ArrayList<>();
        for (PolicyDescriptor d : REGISTRY.policies()) {
            implementations.add(d.factory().apply(defaults(d)).getClass().getName());
        }
        noClasses().that().resideInAnyPackage(NAME_FREE.stream().map(p -> "io.schedlab.engine." + p + "..")
                .toArray(String[]::new))
                .should().dependOnClassesThat().haveNameMatching(String.join("|", implementations
                        .stream().map(n -> n.replace(".", "\\.") + "(\\$.*)?").toList()))
                .check(engine);
    }

    @Test
    void noPolicyNameIsWrittenInValidationAdmissionSimulatorOrTestRunners() throws IOException {
        List<Path> sources = new ArrayList<>();
        for (String pkg : NAME_FREE) {
            try (Stream<Path> files = Files.walk(Path.of("src/main/java/io/schedlab/engine", pkg))) {
                files.filter(f -> f.toString().endsWith(".java")).forEach(sources::add);
            }
        }
        RUNNERS.forEach(r -> sources.add(Path.of("src/test/java/io/schedlab/engine", r)));
        assertThat(sources).hasSizeGreaterThan(RUNNERS.size());
        for (Path source : sources) {
            String text = Files.readString(source);
            for (PolicyDescriptor d : REGISTRY.policies()) {
                assertThat(text).as("%s names policy %s", source, d.name()).doesNotContain("\"" + d.name() + "\"");
            }
        }
    }

    private static io.schedlab.engine.params.Params defaults(PolicyDescriptor d) {
        java.util.Map<String, Object> values = new java.util.HashMap<>();
        d.parameters().forEach(p -> values.put(p.name(), p.defaultValue()));
        return new io.schedlab.engine.params.Params(values);
    }
}
