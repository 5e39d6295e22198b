package io.volumizer.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;

/**
  * The shape the code keeps, as ArchUnit rules over a root package whose sub-packages are the modules
  * ({@code io.volumizer.jobs}, {@code io.volumizer.api}, ...). The root is a parameter so that a test can prove each
  * rule fails on classes written to break it.
  */
final class ArchitectureRules {
    private ArchitectureRules() {
    }

    /** Maven refuses a cycle between modules, but not one between their packages' names across split packages. */
    static ArchRule modulesFreeOfCycles(String root) {
        return slices().matching(root + ".(*)..").namingSlices("module $1").should().beFreeOfCycles();
    }

    /** Inside a module, its top-level packages (each with its sub-packages) depend on each other without a circle. */
    static ArchRule packagesFreeOfCycles(String root) {
        return slices().matching(root + ".(*).(*)..").namingSlices("$1.$2").should().beFreeOfCycles();
    }

    /** A module's {@code internal} package serves its features, so it may not reach back up into any of them. */
    static ArchRule internalReachesNoFeature(String root) {
        return classes().that().resideInAPackage(root + ".*.internal..")
                .should(new ArchCondition<>("depend on no feature package of their own module") {
                    @Override
                    public void check(JavaClass internal, ConditionEvents events) {
                        String module = moduleOf(root, internal);
                        for (Dependency dependency : internal.getDirectDependenciesFromSelf()) {
                            String target = dependency.getTargetClass().getPackageName();
                            if (target.startsWith(module + ".") && !target.startsWith(module + ".internal")) {
                                events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()));
                            }
                        }
                    }
                });
    }

    /** Each benchmark runner is its plan, audit and table on the harness (a module of its own): no runner borrows another's code. */
    static ArchRule runnersIndependent(String benchmarksRoot, String... sharedPackages) {
        var rule = slices().matching(benchmarksRoot + ".(*)..").namingSlices("runner $1").should().notDependOnEachOther();
        for (String shared : sharedPackages) {
            rule = rule.ignoreDependency(DescribedPredicate.alwaysTrue(),
                    JavaClass.Predicates.resideInAPackage(benchmarksRoot + "." + shared + ".."));
        }
        return rule;
    }

    /**
      * HTTP handlers parse, call a service and render: they may read the stores' values (a search result, a query), but
      * never hold or call a store's client, that is a stores class that reaches one of the drivers through its code.
      */
    static ArchRule handlersReachStoresThroughServices(String apiRoot, String storesRoot, String httpPackage,
            String compositionRoot, List<String> driverPackages) {
        return classes().that().resideInAPackage(apiRoot + "..")
                .and(DescribedPredicate.describe("handle HTTP requests", (JavaClass type) -> dependsOn(type, httpPackage)))
                .and().doNotHaveFullyQualifiedName(compositionRoot)
                .should(new ArchCondition<>("reach no store's client (a class of " + storesRoot + " using " + driverPackages
                        + ")") {
                    @Override
                    public void check(JavaClass handler, ConditionEvents events) {
                        for (Dependency dependency : handler.getDirectDependenciesFromSelf()) {
                            JavaClass target = dependency.getTargetClass();
                            if (target.getPackageName().startsWith(storesRoot) && reachesAny(target, storesRoot, driverPackages)) {
                                events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()));
                            }
                        }
                    }
                });
    }

    /** Whether the type, or a class of its own module it uses (directly or not), depends on one of the packages. */
    private static boolean reachesAny(JavaClass type, String module, List<String> packagePrefixes) {
        Set<JavaClass> seen = new HashSet<>(Set.of(type));
        Deque<JavaClass> toVisit = new ArrayDeque<>(seen);
        while (!toVisit.isEmpty()) {
            for (Dependency dependency : toVisit.pop().getDirectDependenciesFromSelf()) {
                JavaClass target = dependency.getTargetClass();
                if (packagePrefixes.stream().anyMatch(target.getPackageName()::startsWith)) {
                    return true;
                }
                if (target.getPackageName().startsWith(module) && seen.add(target)) {
                    toVisit.push(target);
                }
            }
        }
        return false;
    }

    private static boolean dependsOn(JavaClass type, String packagePrefix) {
        return type.getDirectDependenciesFromSelf().stream()
                .anyMatch(dependency -> dependency.getTargetClass().getPackageName().startsWith(packagePrefix));
    }

    private static String moduleOf(String root, JavaClass type) {
        String rest = type.getPackageName().substring(root.length() + 1);
        return root + "." + rest.substring(0, rest.indexOf('.'));
    }
}
