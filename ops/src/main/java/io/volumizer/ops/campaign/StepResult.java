package io.volumizer.ops.campaign;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A finished step's file, {@code steps/<NNN>-<id>.json} (docs/operations/campaigns.md): what the step measured. A
 * figure not measured is null, a list not recorded empty.
 *
 * @param kind      import, measure, reindex, bulk, acl, fault or throttle
 * @param size      the size the step belongs to, null when none
 * @param warmUpSeconds a measure's warm-up before the step's time began
 * @param documents the documents in the repository (MongoDB) before and after the step
 * @param command   a bulk or acl step's command as it ended
 * @param changes   what the stores hold of a bulk or acl step's command's changes
 * @param notes     what the runner wants the report to show, e.g. what a fault did
 */
public record StepResult(Integer position, String id, String kind, StepSize size, String started, String ended,
        Double seconds, Long warmUpSeconds, Documents documents, List<Rate> rates, List<StageSeries> series,
        Command command, Changes changes, List<Latency> latencies, StoreSizes stores, BytesPerDocument bytesPerDocument, List<Cpu> cpu, DeadLetters deadLetters,
        Reconciliation reconciliation, List<String> notes) {

    public StepResult {
        rates = rates == null ? List.of() : List.copyOf(rates);
        series = series == null ? List.of() : List.copyOf(series);
        latencies = latencies == null ? List.of() : List.copyOf(latencies);
        cpu = cpu == null ? List.of() : List.copyOf(cpu);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    public record StepSize(String label, Long documents) {
    }

    /** @param before MongoDB's estimated count as the step began; {@code after} its exact count as it ended */
    public record Documents(Long before, Long after) {
    }

    /** A stage's throughput; {@code finishSeconds}: a reindex's finish after its ranges (catch-up, alias moved). */
    public record Rate(String stage, Long documents, Double docsPerSecond, Double sustainedDocsPerSecond,
            Double finishSeconds) {

        /** The sustained rate, else the average over the step. */
        public Double sustainedElseAverage() {
            return sustainedDocsPerSecond != null ? sustainedDocsPerSecond : docsPerSecond;
        }
    }

    /** A stage's docs/s between consecutive readings. */
    public record StageSeries(String stage, List<Point> points) {

        public StageSeries {
            points = points == null ? List.of() : List.copyOf(points);
        }

        /** Written as {@code [seconds since the step began, docs/s]}. */
        @JsonFormat(shape = JsonFormat.Shape.ARRAY)
        @JsonPropertyOrder({"seconds", "docsPerSecond"})
        public record Point(double seconds, double docsPerSecond) {
        }
    }

    /** The command's final status, as {@code bulk status} shows it; {@code rounds} an ACL change's. */
    public record Command(String id, String state, Long total, Long processed, Long skipped, Long errors, Long rounds,
            Double docsPerSecond) {
    }

    /**
     * A command's changes as the stores hold them. A bulk update's {@code expected}: the documents its selection
     * found in the index before it; an ACL change's {@code checked} (the folder and the documents below it) and
     * {@code mismatches} (stored ACLs the brute-force walk finds wrong); {@code mongodb} and {@code search}: the
     * documents changed as the command should have changed them (an ACL change: readable by its principal).
     */
    public record Changes(Long expected, Long checked, Long mismatches, Long mongodb, Long search, Boolean reconciled) {
    }

    /**
     * One scenario of a measure; {@code errors} counts the requests answered wrongly and the {@code unanswered} ones
     * (no answer two minutes after the last request was sent); the percentiles are of the answered requests.
     */
    public record Latency(String scenario, Double ratePerSecond, Long requests, Long errors, Long unanswered,
            Double p50Ms, Double p95Ms, Double p99Ms, Double maxMs) {

        /** The latency at percentile 50, 95, 99 or 100 (the maximum). */
        public Double percentileMs(int percentile) {
            return switch (percentile) {
                case 50 -> p50Ms;
                case 95 -> p95Ms;
                case 99 -> p99Ms;
                case 100 -> maxMs;
                default -> throw new IllegalArgumentException("no p" + percentile + " is recorded");
            };
        }
    }

    public record StoreSizes(MongoSize mongodb, SearchSize search, Long kafkaBytes, Long diskFreeBytes) {
    }

    public record MongoSize(Long documents, Long dataBytes, Long indexBytes, Long storageBytes) {
    }

    public record SearchSize(Long documents, Long primaryBytes, Long totalBytes) {
    }

    public record BytesPerDocument(Double mongodbData, Double mongodbIndexes, Double searchPrimary) {

        /** Each store's bytes a document measured, by its field's name, in the file's order. */
        public Map<String, Double> byStore() {
            Map<String, Double> stores = new LinkedHashMap<>();
            stores.put("mongodbData", mongodbData);
            stores.put("mongodbIndexes", mongodbIndexes);
            stores.put("searchPrimary", searchPrimary);
            stores.values().removeIf(value -> value == null);
            return stores;
        }
    }

    /** A service's CPU: a document for steps that move documents, a request (all scenarios) for measures. */
    public record Cpu(String service, Double cpuSeconds, Double msPerDocument, Double msPerRequest) {
    }

    /** @param byReason by stage and reason class */
    public record DeadLetters(Long total, Map<String, Long> byReason) {

        public DeadLetters {
            byReason = byReason == null ? Map.of() : byReason;
        }
    }

    public record Reconciliation(Long expected, Long mongodb, Long search, Long deadLetters, Boolean reconciled) {
    }

    /** The size's label, or null for a step of no size. */
    public String sizeLabel() {
        return size == null ? null : size.label();
    }

    /** The repository's documents when the step ended: measured, else the size the step belongs to. */
    public Long repositoryDocuments() {
        Long after = documents == null ? null : documents.after();
        return after != null ? after : size == null ? null : size.documents();
    }
}
