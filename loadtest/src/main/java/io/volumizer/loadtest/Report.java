package io.volumizer.loadtest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statistics of a Gatling run, read from its HTML report's statistics table (the report Gatling 3.15 writes
 * has no JSON of them): per request name and for all requests, executions and response-time percentiles.
 */
public record Report(Path folder, Map<String, Stats> requests) {

    /** One row: counts, throughput and response times in milliseconds. */
    public record Stats(long count, long failed, double perSecond, long min, long p50, long p75, long p95, long p99,
            long max, long mean) {

        public double failedPercent() {
            return count == 0 ? 0 : 100.0 * failed / count;
        }
    }

    public static final String ALL = "All Requests";

    private static final Pattern ROW = Pattern.compile("<tr id=\"(ROOT|req_[^\"]*)\".*?class=\"ellipsed-name\">([^<]*)</span>(.*?)</tr>",
            Pattern.DOTALL);
    private static final Pattern CELL = Pattern.compile("<td class=\"value [a-z]+ col-(\\d+)\">([^<]*)</td>");

    public static Report read(Path folder) throws IOException {
        String html = Files.readString(folder.resolve("index.html"), StandardCharsets.UTF_8);
        Map<String, Stats> requests = new LinkedHashMap<>();
        Matcher row = ROW.matcher(html);
        while (row.find()) {
            Map<Integer, String> cells = new LinkedHashMap<>();
            Matcher cell = CELL.matcher(row.group(3));
            while (cell.find()) {
                cells.put(Integer.parseInt(cell.group(1)), cell.group(2).trim());
            }
            if (cells.size() < 13) {
                throw new IOException("unexpected statistics row for '" + row.group(2) + "' in " + folder.resolve("index.html"));
            }
            requests.put(unescape(row.group(2)), new Stats(number(cells.get(2)), number(cells.get(4)),
                    Double.parseDouble(cells.get(6)), number(cells.get(7)), number(cells.get(8)), number(cells.get(9)),
                    number(cells.get(10)), number(cells.get(11)), number(cells.get(12)), number(cells.get(13))));
        }
        if (!requests.containsKey(ALL)) {
            throw new IOException("no statistics table in " + folder.resolve("index.html")
                    + " (was it written by Gatling 3.15?)");
        }
        return new Report(folder, requests);
    }

    public Stats all() {
        return requests.get(ALL);
    }

    /** The newest run folder of a simulation under the results folder. */
    public static Path latest(Path results, String simulationClass) throws IOException {
        String prefix = simulationClass.substring(simulationClass.lastIndexOf('.') + 1).toLowerCase() + "-";
        try (var folders = Files.list(results)) {
            return folders.filter(p -> p.getFileName().toString().startsWith(prefix))
                    .filter(p -> Files.exists(p.resolve("index.html")))
                    .max(java.util.Comparator.comparing(p -> p.getFileName().toString()))
                    .orElseThrow(() -> new IOException("no Gatling report of " + simulationClass + " under " + results));
        }
    }

    private static long number(String value) {
        return value.equals("-") ? 0 : Math.round(Double.parseDouble(value));
    }

    private static String unescape(String html) {
        return html.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"")
                .replace("&#39;", "'");
    }
}
