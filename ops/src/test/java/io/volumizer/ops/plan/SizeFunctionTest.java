package io.volumizer.ops.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.function.DoubleUnaryOperator;

import org.junit.jupiter.api.Test;

import io.volumizer.ops.plan.SizeFunction.Form;
import io.volumizer.ops.plan.SizeFunction.Point;

class SizeFunctionTest {

    private static final List<Double> SIZES = List.of(1e6, 2e6, 5e6, 1e7, 2e7);

    private static List<Point> points(DoubleUnaryOperator cost) {
        return SIZES.stream().map(n -> new Point(n, cost.applyAsDouble(n))).toList();
    }

    @Test
    void aCostThatDoesNotMoveIsAConstant() {
        SizeFunction fitted = SizeFunction.fit(points(n -> 0.000195));

        assertThat(fitted.form()).isEqualTo(Form.CONSTANT);
        assertThat(fitted.a()).isCloseTo(0.000195, within(1e-12));
        assertThat(fitted.at(3e9)).isCloseTo(0.000195, within(1e-12));
        assertThat(fitted.fromDocuments()).isEqualTo(1e6);
        assertThat(fitted.toDocuments()).isEqualTo(2e7);
        assertThat(fitted.points()).isEqualTo(5);
    }

    @Test
    void aLogarithmIsRecoveredWithItsCoefficients() {
        SizeFunction fitted = SizeFunction.fit(points(n -> 3 + 0.7 * Math.log(n)));

        assertThat(fitted.form()).isEqualTo(Form.LOG);
        assertThat(fitted.a()).isCloseTo(3, within(1e-9));
        assertThat(fitted.b()).isCloseTo(0.7, within(1e-9));
        assertThat(fitted.residual()).isCloseTo(0, within(1e-9));
        assertThat(fitted.describe()).isEqualTo("3.000 + 0.7000·ln(n)");
    }

    @Test
    void aPowerIsRecoveredWithItsExponent() {
        SizeFunction fitted = SizeFunction.fit(points(n -> 2e-3 * Math.pow(n, 0.4)));

        assertThat(fitted.form()).isEqualTo(Form.POWER);
        assertThat(fitted.a()).isCloseTo(2e-3, within(1e-12));
        assertThat(fitted.b()).isCloseTo(0.4, within(1e-9));
        assertThat(fitted.at(3e9)).isCloseTo(2e-3 * Math.pow(3e9, 0.4), within(1e-6));
    }

    @Test
    void noiseIsLeftInTheResidual() {
        // A line in ln(n) with ±1% wobble: the wobble is the residual
        double[] wobble = {0.01, -0.01, 0.01, -0.01, 0.01};
        List<Point> noisy = new java.util.ArrayList<>();
        for (int i = 0; i < SIZES.size(); i++) {
            double n = SIZES.get(i);
            noisy.add(new Point(n, (1 + 0.5 * Math.log(n)) * (1 + wobble[i])));
        }

        SizeFunction fitted = SizeFunction.fit(noisy);

        // Over 1 to 20 million a logarithm and a small power look alike: the fit follows the points either way
        assertThat(fitted.form()).isNotEqualTo(Form.CONSTANT);
        assertThat(fitted.at(2e7)).isCloseTo(1 + 0.5 * Math.log(2e7), within(0.02 * (1 + 0.5 * Math.log(2e7))));
        assertThat(fitted.residual()).isGreaterThan(0);
    }

    @Test
    void aSlopeNeedsThreeSizesAndAPowerValuesAboveZero() {
        SizeFunction twoSizes = SizeFunction.fit(List.of(new Point(1e6, 1), new Point(2e6, 3)));
        assertThat(twoSizes.form()).as("two sizes cannot tell a form").isEqualTo(Form.CONSTANT);
        assertThat(twoSizes.a()).isEqualTo(2);

        SizeFunction withZero = SizeFunction.fit(List.of(new Point(1e6, 0), new Point(2e6, 1), new Point(4e6, 2)));
        assertThat(withZero.form()).isEqualTo(Form.LOG);
    }

    @Test
    void degenerateInputsAreRefused() {
        assertThatThrownBy(() -> SizeFunction.fit(List.of())).hasMessageContaining("no points");
        assertThatThrownBy(() -> SizeFunction.fit(List.of(new Point(0, 1), new Point(1e6, 1))))
                .hasMessageContaining("a size above 0");
        assertThatThrownBy(() -> SizeFunction.fit(List.of(new Point(1e6, Double.NaN))))
                .hasMessageContaining("a finite value");
        assertThatThrownBy(() -> SizeFunction.fit(List.of(new Point(Double.POSITIVE_INFINITY, 1))))
                .hasMessageContaining("a size above 0");
    }
}
