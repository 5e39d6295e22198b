package io.volumizer.ops.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleUnaryOperator;
import java.util.function.ToDoubleFunction;

/**
 * A cost as a function of the repository's size {@code n} (documents), fitted by least squares to points measured at
 * several sizes: a constant {@code a}, a logarithm {@code a + b·ln(n)} or a power {@code a·n^b}. The form chosen is
 * the one with the smallest residual standard error (the residuals' sum of squares over the points less the form's
 * parameters), the simpler form on a tie, so that noise alone does not buy a slope.
 *
 * @param form          the form chosen
 * @param a             its first coefficient
 * @param b             its second: the slope of {@code ln(n)}, or the exponent (0 for a constant)
 * @param residual      the fit's residual standard error, in the cost's unit
 * @param fromDocuments the smallest size measured
 * @param toDocuments   the largest size measured: beyond it the function extrapolates
 * @param points        the points it was fitted to
 */
public record SizeFunction(Form form, double a, double b, double residual, double fromDocuments, double toDocuments,
        int points) {

    public enum Form {
        CONSTANT(1), LOG(2), POWER(2);

        final int parameters;

        Form(int parameters) {
            this.parameters = parameters;
        }
    }

    /** A cost measured at a size. */
    public record Point(double documents, double value) {
    }

    /** The cost at {@code documents}. */
    public double at(double documents) {
        return switch (form) {
            case CONSTANT -> a;
            case LOG -> a + b * Math.log(documents);
            case POWER -> a * Math.pow(documents, b);
        };
    }

    /** The form and its coefficients, e.g. {@code 0.12 + 0.004·ln(n)}. */
    public String describe() {
        return switch (form) {
            case CONSTANT -> String.format(Locale.ROOT, "%.4g", a);
            case LOG -> String.format(Locale.ROOT, "%.4g %s %.4g·ln(n)", a, b < 0 ? "-" : "+", Math.abs(b));
            case POWER -> String.format(Locale.ROOT, "%.4g·n^%.4f", a, b);
        };
    }

    /**
     * The best of the three forms for {@code points}. A two-parameter form needs three sizes at least; a power needs
     * every value above 0 (it is fitted on the logarithms).
     */
    public static SizeFunction fit(List<Point> points) {
        if (points.isEmpty()) {
            throw new IllegalArgumentException("no points to fit a cost to");
        }
        for (Point point : points) {
            if (!(point.documents() > 0) || Double.isInfinite(point.documents()) || !Double.isFinite(point.value())) {
                throw new IllegalArgumentException("a cost's point needs a size above 0 and a finite value, was "
                        + point);
            }
        }
        long sizes = points.stream().mapToDouble(Point::documents).distinct().count();
        List<SizeFunction> candidates = new ArrayList<>();
        candidates.add(candidate(Form.CONSTANT, points, mean(points, Point::value), 0));
        if (sizes >= 3) {
            double[] log = line(points, Math::log, DoubleUnaryOperator.identity());
            candidates.add(candidate(Form.LOG, points, log[0], log[1]));
            if (points.stream().allMatch(point -> point.value() > 0)) {
                double[] power = line(points, Math::log, Math::log);
                candidates.add(candidate(Form.POWER, points, Math.exp(power[0]), power[1]));
            }
        }
        // Tolerance: a form that fits exactly ties with a simpler one that does too, whatever the rounding
        double scale = points.stream().mapToDouble(point -> Math.abs(point.value())).max().orElse(0);
        return candidates.stream().min(Comparator.comparingDouble((SizeFunction f) -> f.residual() > 1e-9 * scale
                ? f.residual() : 0).thenComparingInt(f -> f.form().parameters)).orElseThrow();
    }

    private static SizeFunction candidate(Form form, List<Point> points, double a, double b) {
        SizeFunction function = new SizeFunction(form, a, b, 0, 0, 0, points.size());
        double squares = points.stream().mapToDouble(point -> Math.pow(point.value() - function.at(point.documents()), 2))
                .sum();
        int freedom = points.size() - form.parameters;
        double residual = freedom > 0 ? Math.sqrt(squares / freedom) : 0;
        return new SizeFunction(form, a, b, residual,
                points.stream().mapToDouble(Point::documents).min().orElseThrow(),
                points.stream().mapToDouble(Point::documents).max().orElseThrow(), points.size());
    }

    /** Least squares of {@code y(value)} on {@code x(documents)}: {intercept, slope}. */
    private static double[] line(List<Point> points, DoubleUnaryOperator x, DoubleUnaryOperator y) {
        double meanX = points.stream().mapToDouble(p -> x.applyAsDouble(p.documents())).average().orElseThrow();
        double meanY = points.stream().mapToDouble(p -> y.applyAsDouble(p.value())).average().orElseThrow();
        double covariance = 0;
        double variance = 0;
        for (Point point : points) {
            double dx = x.applyAsDouble(point.documents()) - meanX;
            covariance += dx * (y.applyAsDouble(point.value()) - meanY);
            variance += dx * dx;
        }
        double slope = covariance / variance;
        return new double[] {meanY - slope * meanX, slope};
    }

    private static double mean(List<Point> points, ToDoubleFunction<Point> value) {
        return points.stream().mapToDouble(value).average().orElseThrow();
    }
}
