package io.volumizer.ops.plan;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Whose documents' bytes a plan stores: the calibration's (our generator's documents, as measured) or the published
 * benchmark's ({@code seeds/001}, Nuxeo's 100-million-document run), so that a published layout's shards can be
 * reproduced from the documents it held.
 */
// Lower case: the values the command line takes, whether or not its parser ignores case.
public enum DocumentBytes {
    /** Each type's bytes as the calibration measured them, grown with size where it has functions of it. */
    measured,
    /** Every document the published average, whatever its type and index profile. */
    published;

    /** seeds/001: MongoDB "average document size is 1058 bytes". */
    public static final double PUBLISHED_MONGODB_DATA = 1058;
    /** seeds/001: 19.4 GiB of MongoDB indexes for 100 million documents. */
    public static final double PUBLISHED_MONGODB_INDEXES = 19.4 * Planner.GIB / 100e6;
    /** seeds/001: "The Elasticsearch storage size is 117GiB" for 100 million documents, without replication. */
    public static final double PUBLISHED_SEARCH_PRIMARY = 117.0 * Planner.GIB / 100e6;

    /** {@code calibration} with these documents' bytes. */
    public Calibration apply(Calibration calibration) {
        if (this == measured) {
            return calibration;
        }
        Map<String, Calibration.TypeCosts> published = new LinkedHashMap<>();
        calibration.types().forEach((type, costs) -> {
            Map<String, Double> search = new LinkedHashMap<>();
            costs.searchBytes().keySet().forEach(profile -> search.put(profile, PUBLISHED_SEARCH_PRIMARY));
            published.put(type, new Calibration.TypeCosts(PUBLISHED_MONGODB_DATA, PUBLISHED_MONGODB_INDEXES, search,
                    costs.blobBytes()));
        });
        Calibration.SizeCosts bySize = calibration.bySize();
        return calibration.with(published, new Calibration.SizeCosts(bySize.campaign(), bySize.cpu(),
                bySize.requestCpu(), Map.of(), bySize.p95Millis()), String.format(java.util.Locale.ROOT,
                "Documents' bytes: the published benchmark's (seeds/001, 100 million documents): %,.0f bytes of "
                        + "MongoDB data and %,.0f of indexes, %,.0f in the search index (primaries), every type and "
                        + "index profile alike, at every size.", PUBLISHED_MONGODB_DATA, PUBLISHED_MONGODB_INDEXES,
                PUBLISHED_SEARCH_PRIMARY));
    }
}
