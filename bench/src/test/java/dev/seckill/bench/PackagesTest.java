package dev.seckill.bench;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

/**
 * The bench's packages depend one way (docs/bench-design.md, "How the bench is built"): report, then measure, load,
 * scenario, and the entry point on top; a package never reaches one above it, so no class ties the others in a circle.
 */
class PackagesTest {

    static final JavaClasses BENCH = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.seckill.bench");

    static ArchRule layers() {
        return layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("entry point").definedBy("dev.seckill.bench")
                .layer("scenario").definedBy("dev.seckill.bench.scenario..")
                .layer("load").definedBy("dev.seckill.bench.load..")
                .layer("measure").definedBy("dev.seckill.bench.measure..")
                .layer("report").definedBy("dev.seckill.bench.report..")
                .whereLayer("entry point").mayNotBeAccessedByAnyLayer()
                .whereLayer("scenario").mayOnlyBeAccessedByLayers("entry point")
                .whereLayer("load").mayOnlyBeAccessedByLayers("entry point", "scenario")
                .whereLayer("measure").mayOnlyBeAccessedByLayers("entry point", "scenario", "load")
                .whereLayer("report").mayOnlyBeAccessedByLayers("entry point", "scenario", "load", "measure");
    }

    @Test
    void eachPackageDependsOnlyOnThoseBelowIt() {
        layers().check(BENCH);
    }
}
