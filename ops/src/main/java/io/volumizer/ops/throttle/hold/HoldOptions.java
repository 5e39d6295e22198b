package io.volumizer.ops.throttle.hold;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.volumizer.options.conventions.ApiRouteGroup;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;

/** The hold mode's options ({@code bin/volumizer throttle <step> --hold-p95 50ms}), and its controller's settings. */
public final class HoldOptions {

    @Option(names = "--hold-p95", converter = Latency.class, paramLabel = "LATENCY", description = "Instead of a fixed "
            + "setting: keep raising the step's limit while the users' p95 stays under this (50ms, 0.2s), lower it "
            + "when it does not; runs until Ctrl-C, the last limit stays.")
    public Duration target;

    @Option(names = "--route", defaultValue = "navigation", converter = Group.class, description = "Whose p95: "
            + "navigation, search or reads (default: ${DEFAULT-VALUE}).")
    public ApiRouteGroup route;

    @Option(names = "--api-metrics", defaultValue = "${sys:volumizer.api.metrics}", paramLabel = "HOST:PORT",
            description = "The API's Prometheus endpoint (its management port; default: the local API's, from the "
                    + "endpoints file of bin/volumizer up).")
    public String apiMetrics;

    @Option(names = "--flink-metrics", defaultValue = "${sys:volumizer.flink.metrics}", paramLabel = "HOST:PORTS",
            description = "The Flink processes' Prometheus endpoints, comma-separated, a port range as first-last "
                    + "(default: the local session cluster's, from the endpoints file of bin/volumizer up).")
    public String flinkMetrics;

    @Option(names = "--hold-interval", defaultValue = "PT5S", description = "A window's length (default: ${DEFAULT-VALUE}).")
    public Duration interval;

    @Option(names = "--hold-start", defaultValue = "100", description = "The first limit, docs/s (default: ${DEFAULT-VALUE}).")
    public double start;

    @Option(names = "--hold-increase", defaultValue = "50", description = "Docs/s added after a window under the "
            + "headroom (default: ${DEFAULT-VALUE}).")
    public double increase;

    @Option(names = "--hold-decrease", defaultValue = "0.7", description = "The limit's factor after a window over "
            + "the target (default: ${DEFAULT-VALUE}).")
    public double decrease;

    @Option(names = "--hold-headroom", defaultValue = "0.5", description = "The fraction of the target under which "
            + "the limit may rise (the p95 over --hold-probe-span): a window's p95 varies twofold at one rate, so "
            + "staying under the target in nearly every window means aiming under it (default: ${DEFAULT-VALUE}).")
    public double headroom;

    @Option(names = "--hold-floor", defaultValue = "10", description = "The lowest limit, docs/s (default: ${DEFAULT-VALUE}).")
    public double floor;

    @Option(names = "--hold-ceiling", defaultValue = "0", description = "The highest limit, docs/s; 0: none "
            + "(default: ${DEFAULT-VALUE}).")
    public double ceiling;

    @Option(names = "--hold-min-requests", defaultValue = "100", description = "Fewer requests in a window leave the "
            + "limit as it is: their p95 is one of their few slowest (default: ${DEFAULT-VALUE}).")
    public long minRequests;

    @Option(names = "--hold-probe-span", defaultValue = "PT30S", description = "A probing increase is judged on the "
            + "users' p95 over this span, the last windows together (default: ${DEFAULT-VALUE}).")
    public Duration probeSpan;

    @Option(names = "--hold-decrease-span", defaultValue = "PT10S", description = "A decrease is judged on the users' "
            + "p95 over this span, the last windows together, once the last window is over the target too; a window "
            + "far over it cuts at once (default: ${DEFAULT-VALUE}).")
    public Duration decreaseSpan;

    @Option(names = "--hold-metrics-port", defaultValue = "${sys:volumizer.hold.metrics.port:-0}", description = "Where the "
            + "controller serves its Prometheus metrics; 0: nowhere (default: HOLD_METRICS_PORT of the endpoints file of "
            + "bin/volumizer up, else 0).")
    public int metricsPort;

    /** The controller these options describe, holding {@code p95}. */
    public AimdController controller(Duration p95) {
        return new AimdController(p95.toNanos() / 1e9, increase, decrease, headroom, floor, ceiling, minRequests,
                windows(probeSpan), windows(decreaseSpan));
    }

    private int windows(Duration span) {
        return (int) Math.max(1, span.toMillis() / interval.toMillis());
    }

    /** A latency: {@code 50ms}, {@code 0.2s}, or ISO-8601 ({@code PT0.05S}). */
    public static final class Latency implements ITypeConverter<Duration> {
        private static final Pattern SHORT = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(ms|s)");

        @Override
        public Duration convert(String value) {
            Matcher shortForm = SHORT.matcher(value.trim().toLowerCase(Locale.ROOT));
            if (shortForm.matches()) {
                double amount = Double.parseDouble(shortForm.group(1));
                return Duration.ofNanos(Math.round(amount * (shortForm.group(2).equals("ms") ? 1e6 : 1e9)));
            }
            return Duration.parse(value);
        }
    }

    /** A route group by its id. */
    public static final class Group implements ITypeConverter<ApiRouteGroup> {
        @Override
        public ApiRouteGroup convert(String value) {
            return ApiRouteGroup.named(value);
        }
    }
}
