package io.volumizer.loadtest;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Response times of the requests a simulation marks as refusable, apart by outcome: admitted (any answer but 503)
 * or refused by the API's admission control (503). Gatling's report mixes the two in one percentile; an API that
 * sheds load is judged on each apart: the admitted keep their latency, the refused are answered at once. Kept in
 * the load test's own JVM, where Gatling runs the simulation.
 */
public final class Admissions {

    /** The status of a request the API refused for want of a place. */
    public static final int REFUSED = 503;

    private static final Map<String, List<Long>> ADMITTED = new ConcurrentHashMap<>();
    private static final Map<String, List<Long>> REFUSED_TIMES = new ConcurrentHashMap<>();

    private Admissions() {
    }

    static void record(String request, int status, long millis) {
        (status == REFUSED ? REFUSED_TIMES : ADMITTED)
                .computeIfAbsent(request, r -> Collections.synchronizedList(new ArrayList<>())).add(millis);
    }

    /** One request's admitted and refused answers: how many, and their 50th, 95th and 99th percentiles (ms). */
    public record Split(long admitted, long admittedP50, long admittedP95, long admittedP99, long refused,
            long refusedP50, long refusedP95, long refusedP99) {
    }

    /** Per request name, then {@link Report#ALL} for every request; empty when no request was recorded. */
    public static Map<String, Split> splits() {
        Map<String, Split> splits = new TreeMap<>();
        List<Long> allAdmitted = new ArrayList<>();
        List<Long> allRefused = new ArrayList<>();
        for (String request : names()) {
            List<Long> admitted = copy(ADMITTED.get(request));
            List<Long> refused = copy(REFUSED_TIMES.get(request));
            allAdmitted.addAll(admitted);
            allRefused.addAll(refused);
            splits.put(request, split(admitted, refused));
        }
        if (!splits.isEmpty()) {
            splits.put(Report.ALL, split(allAdmitted, allRefused));
        }
        return splits;
    }

    private static List<String> names() {
        List<String> names = new ArrayList<>(ADMITTED.keySet());
        REFUSED_TIMES.keySet().stream().filter(name -> !names.contains(name)).forEach(names::add);
        return names;
    }

    private static Split split(List<Long> admitted, List<Long> refused) {
        Collections.sort(admitted);
        Collections.sort(refused);
        return new Split(admitted.size(), percentile(admitted, 50), percentile(admitted, 95), percentile(admitted, 99),
                refused.size(), percentile(refused, 50), percentile(refused, 95), percentile(refused, 99));
    }

    private static List<Long> copy(List<Long> times) {
        if (times == null) {
            return new ArrayList<>();
        }
        synchronized (times) {
            return new ArrayList<>(times);
        }
    }

    /** Nearest-rank percentile of sorted values; 0 when there are none. */
    static long percentile(List<Long> sorted, double percent) {
        if (sorted.isEmpty()) {
            return 0;
        }
        int rank = (int) Math.ceil(percent / 100 * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }
}
