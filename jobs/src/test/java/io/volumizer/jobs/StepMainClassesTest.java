package io.volumizer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.volumizer.options.steps.Step;

/** Every step the tools submit names a main class of this jar that the cluster can run. */
class StepMainClassesTest {

    @ParameterizedTest
    @EnumSource(Step.class)
    void aStepsMainClassIsAJobOfThisJarWithAMain(Step step) throws Exception {
        Class<?> job = Class.forName(step.mainClass());
        Method main = job.getMethod("main", String[].class);

        assertThat(job.getPackageName()).startsWith("io.volumizer.jobs.");
        assertThat(Modifier.isStatic(main.getModifiers()) && Modifier.isPublic(main.getModifiers())).isTrue();
    }
}
