package io.volumizer.benchmarks.security;

import java.util.Locale;

import io.volumizer.loadtest.hostile.HonestUsers;
import io.volumizer.loadtest.hostile.HeapSampler;
import io.volumizer.loadtest.hostile.Latencies;
import io.volumizer.ops.results.Report;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The hostile-clients benchmark's table, from its summary (hostile.json). */
final class HostileTable {

    private HostileTable() {
    }

    static String markdown(ObjectNode summary) {
        StringBuilder text = new StringBuilder("## Hostile clients: honest users beside hostile ones\n\n");
        JsonNode machine = summary.path("machine");
        JsonNode capacity = summary.path("capacity");
        text.append(String.format(Locale.ROOT, "Repository `%s` (%d customers), the API started in the benchmark's JVM "
                        + "(-Xmx %d MiB) on 127.0.0.1 against the local services; %d honest users (%s, branch of %s) over "
                        + "%d distinct navigation and search requests. Machine: %d cores, %s; load average %.1f at the "
                        + "start, %.1f at the end. Started %s.%n%n", summary.path("repository").asText(),
                summary.path("customers").asLong(), summary.path("maxHeapMiB").asLong(), summary.path("honestUsers").asInt(),
                summary.path("honestLogins").asText(), summary.path("state").asText(),
                summary.path("distinctQueries").asInt(), machine.path("cores").asInt(), machine.path("note").asText(),
                machine.path("loadAverageAtStart").asDouble(), machine.path("loadAverageAtEnd").asDouble(),
                summary.path("started").asText()));
        text.append(String.format(Locale.ROOT, "Capacity (closed loop, %d users, %d s after %d s of warm-up): %.1f req/s, "
                        + "p95 %.2f ms. Honest users in every pass: open loop at %.1f req/s (%.2f of it), %d s a pass, "
                        + "latency from when each request was due; A = alone, B = beside the hostile users, %d rounds.%n%n",
                summary.path("honestUsers").asInt(), capacity.path("seconds").asLong(), capacity.path("warmUpSeconds").asLong(),
                capacity.path("perSecond").asDouble(), capacity.path("p95Millis").asDouble(),
                summary.path("honestRatePerSecond").asDouble(), summary.path("load").asDouble(),
                summary.path("passSeconds").asLong(), summary.path("rounds").asInt()));
        text.append("| pass | honest req/s | p50 ms | p95 ms | p99 ms | max ms | honest refused by authentication | honest errors | "
                + "peak heap MiB | peak after GC MiB | GCs (ms) | load avg (peak) |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (JsonNode row : summary.path("passes")) {
            text.append(String.format(Locale.ROOT, "| %s%s | %.1f | %.2f | %.2f | %.2f | %.1f | %d | %d | %d | %d | "
                            + "%d (%d) | %.1f |%n", row.path("pass").asText(), row.path("hostile").asBoolean()
                            ? " (hostile)" : " (alone)", row.path("perSecond").asDouble(), row.path("p50Millis").asDouble(),
                    row.path("p95Millis").asDouble(), row.path("p99Millis").asDouble(), row.path("maxMillis").asDouble(),
                    row.path("refusedByAuthentication").asLong(), row.path("errors").asLong(), row.path("peakHeapMiB").asLong(),
                    row.path("peakAfterCollectionMiB").asLong(), row.path("collections").asLong(),
                    row.path("collectionMillis").asLong(), row.path("peakLoadAverage").asDouble()));
        }
        JsonNode p95 = summary.path("p95Ratio");
        JsonNode refused = summary.path("honestRefusedByAuthentication");
        JsonNode heap = summary.path("heap");
        JsonNode lost = summary.path("nothingLost");
        text.append("\n| figure | measured | target | |\n|---|---|---|---|\n");
        text.append(String.format(Locale.ROOT, "| honest p95, B / A | %.2f× (rounds %.2f× to %.2f×) | ≤ %.2f× | %s |%n",
                p95.path("ratio").asDouble(), p95.path("min").asDouble(), p95.path("max").asDouble(),
                p95.path("target").asDouble(), met(p95)));
        text.append(String.format(Locale.ROOT, "| honest requests refused by authentication (401, 429 too_many_failures) "
                + "| %d | 0 | %s |%n",
                refused.path("count").asLong(), met(refused)));
        text.append(String.format(Locale.ROOT, "| honest errors (other statuses, no answer) | %d | 0 | %s |%n",
                summary.path("honestErrors").asLong(), summary.path("honestErrors").asLong() == 0 ? "met" : "NOT met"));
        text.append(String.format(Locale.ROOT, "| peak heap beside hostile users (alone: %d MiB) | %d MiB of %d MiB | "
                        + "≤ %.0f%% of -Xmx | %s |%n", heap.path("peakAloneMiB").asLong(),
                heap.path("peakBesideHostileMiB").asLong(), heap.path("maxHeapMiB").asLong(),
                100 * heap.path("target").asDouble(), met(heap)));
        JsonNode before = lost.path("before");
        JsonNode after = lost.path("after");
        text.append(String.format(Locale.ROOT, "| nothing lost: MongoDB documents (live), before → after | %d (%d) → %d (%d) "
                        + "| equal | %s |%n", before.path("documents").asLong(), before.path("live").asLong(),
                after.path("documents").asLong(), after.path("live").asLong(),
                before.path("documents").equals(after.path("documents")) && before.path("live").equals(after.path("live"))
                        ? "met" : "NOT met"));
        StringBuilder appended = new StringBuilder();
        lost.path("eventsAppended").fields().forEachRemaining(event -> appended.append(appended.length() == 0 ? "" : ", ")
                .append(event.getKey()).append(": ").append(event.getValue().asLong()));
        text.append(String.format(Locale.ROOT, "| nothing written: document events appended to `%s` during the run "
                        + "(end offsets %d → %d, an import job's progress marks aside) | %s | none | %s |%n",
                lost.path("topic").asText(), lost.path("topicEndOffsetsBefore").asLong(),
                lost.path("topicEndOffsetsAfter").asLong(), appended.length() == 0 ? "none" : appended,
                appended.length() == 0 ? "met" : "NOT met"));
        before.path("liveDescendants").fields().forEachRemaining(folder -> text.append(String.format(Locale.ROOT,
                "| nothing deleted: live descendants of `%s` (itself live), before → after | %d (%s) → %d (%s) | equal | %s |%n",
                folder.getKey(), folder.getValue().asLong(), before.path("folderLive").path(folder.getKey()).asBoolean(),
                after.path("liveDescendants").path(folder.getKey()).asLong(),
                after.path("folderLive").path(folder.getKey()).asBoolean(),
                folder.getValue().equals(after.path("liveDescendants").path(folder.getKey()))
                        && before.path("folderLive").path(folder.getKey()).equals(after.path("folderLive").path(folder.getKey()))
                        ? "met" : "NOT met")));
        text.append(String.format(Locale.ROOT, "| hostile requests answered 2xx | %d | 0 | %s |%n",
                lost.path("hostileAccepted").asLong(), lost.path("hostileAccepted").asLong() == 0 ? "met" : "NOT met"));
        JsonNode internal = summary.path("hostileInternalErrors");
        text.append(String.format(Locale.ROOT, "| hostile requests answered 500 (failed inside the API) | %d | 0 | %s |%n",
                internal.path("count").asLong(), met(internal)));

        JsonNode limits = summary.path("apiLimits");
        text.append(String.format(Locale.ROOT, "%nHostile users in the B passes, from 127.0.0.1 like the honest ones, each "
                        + "kind in its own threads (the API's limits: JSON %d bytes, request %d bytes, bodies at %d bytes a "
                        + "second at least, recursive delete %d documents, penalty after %d failed authentications):%n%n",
                limits.path("maxJsonBytes").asLong(), limits.path("maxRequestBytes").asLong(),
                limits.path("minBodyBytesPerSecond").asLong(),
                limits.path("maxRecursiveDelete").asLong(), limits.path("authPenaltyAfter").asInt()));
        text.append("| hostile user | every | requests | answers | p50 ms | max ms | API read a request, median / max "
                + "| client sent before the answer, max |\n").append("|---|---:|---:|---|---:|---:|---:|---:|\n");
        summary.path("hostile").fields().forEachRemaining(kind -> {
            JsonNode node = kind.getValue();
            StringBuilder answers = new StringBuilder();
            node.path("answers").fields().forEachRemaining(answer -> answers.append(answers.length() == 0 ? "" : ", ")
                    .append(answer.getKey()).append(": ").append(answer.getValue().asLong()));
            text.append(String.format(Locale.ROOT, "| %s | %s | %d | %s | %.1f | %.1f | %s | %s |%n",
                    node.path("description").asText(), node.path("intervalMillis").asLong() == 0
                            ? node.path("threads").asInt() + " at once" : node.path("intervalMillis").asLong() + " ms",
                    node.path("requests").asLong(), answers, node.path("p50Millis").asDouble(),
                    node.path("maxMillis").asDouble(), node.path("apiReadMaxBytes").asLong(-1) >= 0
                            ? mib(node.path("apiReadMedianBytes").asLong()) + " / " + mib(node.path("apiReadMaxBytes").asLong())
                            : "", node.has("maxBytesSentBeforeAnswer") ? mib(node.path("maxBytesSentBeforeAnswer").asLong()) : ""));
        });
        summary.path("hostileSkipped").forEach(skipped -> text.append("\nNot sent: ").append(skipped.asText()).append('\n'));
        text.append("\nThe heap is this JVM's (the API and the users' clients), sampled every 100 ms; \"after GC\" is the "
                + "most a collection left. \"API read\" is what the API's Jetty read on the request's connection (its headers "
                + "included); \"client sent\" is what the client had written when the answer's first line arrived, "
                + "which the loopback's socket buffers (up to 32 MiB received, 4 MiB sent here) took without the API "
                + "reading it.\n");
        return text.toString();
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.2f MiB", bytes / (double) HostileClientsBenchmark.MIB);
    }

    private static String met(JsonNode figure) {
        return figure.path("met").asBoolean() ? "met" : "NOT met";
    }

    static void honestStats(ObjectNode node, HonestUsers.Outcome outcome) {
        Latencies latencies = outcome.latencies();
        node.put("offered", outcome.offered()).put("answered", latencies.count()).put("perSecond", latencies.perSecond())
                .put("p50Millis", latencies.percentileMillis(50)).put("p95Millis", latencies.percentileMillis(95))
                .put("p99Millis", latencies.percentileMillis(99)).put("maxMillis", latencies.percentileMillis(100))
                .put("refusedByAuthentication", outcome.refusedByAuthentication()).put("errors", outcome.errors())
                .put("noAnswer", outcome.failed());
        node.set("answers", Report.JSON.valueToTree(outcome.byAnswer()));
    }

    static void heapStats(ObjectNode node, HeapSampler.Window window) {
        node.put("peakHeapMiB", window.peakUsedBytes() / HostileClientsBenchmark.MIB).put("peakAfterCollectionMiB", window.peakRetainedBytes() / HostileClientsBenchmark.MIB)
                .put("collections", window.collections()).put("collectionMillis", window.collectionMillis())
                .put("loadAverageAtStart", window.loadAtStart()).put("peakLoadAverage", window.peakLoad());
    }
}
