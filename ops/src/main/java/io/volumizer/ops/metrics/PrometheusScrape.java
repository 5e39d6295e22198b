package io.volumizer.ops.metrics;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Samples read from Prometheus text-format endpoints, as a Prometheus server would scrape them: for the tests and
 * tools that check what the Flink processes and the API export.
 */
public final class PrometheusScrape {

    /** One sample: {@code name{label="value",...} value}. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})?\\s+(\\S+)");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final List<Sample> samples;

    private PrometheusScrape(List<Sample> samples) {
        this.samples = samples;
    }

    /**
     * Every sample served by {@code endpoints}: {@code host:port} or {@code host:first-last} (a range, as Flink's
     * reporter takes it), comma-separated. Ports where nothing listens are skipped: there may be fewer TaskManagers
     * than ports.
     */
    /**
     * The local session cluster's Prometheus endpoints: its JobManager's and its TaskManagers' (conf/volumizer.conf's
     * FLINK_JM_METRICS_PORT and FLINK_TM_METRICS_PORTS).
     */
    public static final String LOCAL_FLINK = "127.0.0.1:9249,127.0.0.1:9250-9259";

    public static PrometheusScrape of(String endpoints) throws InterruptedException {
        List<Sample> samples = new ArrayList<>();
        for (String hostAndPorts : endpoints.split(",")) {
            samples.addAll(scrape(hostAndPorts.trim()));
        }
        return new PrometheusScrape(samples);
    }

    private static List<Sample> scrape(String hostAndPorts) throws InterruptedException {
        int colon = hostAndPorts.lastIndexOf(':');
        String host = hostAndPorts.substring(0, colon);
        List<Sample> samples = new ArrayList<>();
        String[] range = hostAndPorts.substring(colon + 1).split("-");
        int first = Integer.parseInt(range[0]);
        int last = Integer.parseInt(range[range.length - 1]);
        for (int port = first; port <= last; port++) {
            try {
                HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                        URI.create("http://" + host + ":" + port + "/metrics")).timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    samples.addAll(parse(response.body()));
                }
            } catch (IOException nothingListens) {
                // fewer TaskManagers than ports in the range
            }
        }
        return samples;
    }

    /** The samples of a Prometheus text-format document. */
    public static List<Sample> parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            Matcher sample = SAMPLE.matcher(line);
            if (line.startsWith("#") || !sample.find()) {
                continue;
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (sample.group(2) != null) {
                for (Matcher label = LABEL.matcher(sample.group(2)); label.find(); ) {
                    labels.put(label.group(1), label.group(2));
                }
            }
            samples.add(new Sample(sample.group(1), labels, Double.parseDouble(sample.group(3))));
        }
        return samples;
    }

    public List<Sample> samples() {
        return samples;
    }

    /** The metric names of every sample, sorted. */
    public Set<String> names() {
        Set<String> names = new TreeSet<>();
        samples.forEach(sample -> names.add(sample.name()));
        return names;
    }

    /** The sum of the samples named {@code name} whose labels include every one of {@code labels}. */
    public double sum(String name, Map<String, String> labels) {
        return samples.stream().filter(s -> s.name().equals(name))
                .filter(s -> s.labels().entrySet().containsAll(labels.entrySet()))
                .mapToDouble(Sample::value).sum();
    }
}
