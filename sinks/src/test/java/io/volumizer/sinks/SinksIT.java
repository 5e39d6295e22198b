package io.volumizer.sinks;

import static io.volumizer.sinks.testing.Events.imported;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;

import io.volumizer.options.conventions.MetricNames;
import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.event.DeadLetter;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.schemas.event.ReasonClass;
import io.volumizer.schemas.registry.SchemaRegistryClient;
import io.volumizer.sinks.deadletter.DeadLetters;
import io.volumizer.sinks.mongodb.MongoSinkBuilder;
import io.volumizer.sinks.search.SearchConnection;
import io.volumizer.sinks.search.SearchSinkBuilder;
import io.volumizer.stores.mongodb.RepositoryDatabases;
import io.volumizer.stores.search.IndexNames;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchEngines;
import io.volumizer.stores.search.SearchOptions;

/**
 * The MongoDB and search sinks in a job on Flink's mini cluster, against the local MongoDB and search engine, as the
 * import-and-index job chains them: the documents MongoDB holds are indexed, a document the engine refuses is a dead
 * letter of the index stage with the engine's reason, and the others go on.
 */
class SinksIT {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(1).build());

    private final String database = "it_" + UUID.randomUUID().toString().replace("-", "");
    private final IndexNames names = new IndexNames("it-" + UUID.randomUUID() + "-");
    private final SearchOptions search = new SearchOptions();
    private MongoClient mongo;
    private SearchEngine engine;

    @BeforeEach
    void connect() {
        search.urls = System.getProperty("volumizer.search.url", "http://127.0.0.1:9200");
        mongo = MongoClients.create(mongoUri());
        engine = SearchEngines.open(search);
    }

    @AfterEach
    void cleanUp() throws Exception {
        mongo.getDatabase(database).drop();
        mongo.close();
        engine.indices(names).deleteAll();
        engine.close();
        HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(search.urls + "/_index_template/"
                + names.template())).DELETE().build(), HttpResponse.BodyHandlers.discarding());
    }

    private static String mongoUri() {
        return System.getProperty("volumizer.mongodb.uri", "mongodb://127.0.0.1:27017");
    }

    /** A codec on the local registry, under a subject of this test's: a dead letter's payload is written with it. */
    private static <T extends SpecificRecord> AvroCodec<T> codec(Class<T> type) {
        return AvroCodec.forSpecific(new SchemaRegistryClient(System.getProperty("volumizer.registry.url",
                "http://127.0.0.1:8085/apis/ccompat/v7")), AvroCodec.valueSubject("it-sinks-" + type.getSimpleName()), type);
    }

    @Test
    void writesIntoMongoDbThenIndexesAndDeadLettersWhatTheEngineRefuses() throws Exception {
        SearchConnection connection = new SearchConnection(search, names, Map.of());
        connection.installTemplate();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        ImportedEvent refused = ImportedEvent.newBuilder(imported("bad")).setDocument(DocumentEvent.newBuilder(
                imported("bad").getDocument()).setProperties(Map.of("openingDate", "not a date")).build()).build();

        SingleOutputStreamOperator<ImportedEvent> written = new MongoSinkBuilder()
                .setDatabases(RepositoryDatabases.shared(mongoUri(), database))
                .setDeadLetterCodec(codec(DocumentEvent.class)).setStage(MetricNames.IMPORT)
                .setBulkFlushMaxActions(2).setBulkFlushInterval(Duration.ofSeconds(1)).build()
                .writeFrom(env.fromData(imported("a"), refused, imported("b"), imported("c")), "Write to MongoDB");
        SingleOutputStreamOperator<ImportedEvent> indexed = new SearchSinkBuilder().setConnection(connection)
                .setDeadLetterCodec(codec(ImportedEvent.class)).setStage(MetricNames.INDEX)
                .setBulkFlushMaxActions(2).setBulkFlushInterval(Duration.ofSeconds(1)).build()
                .writeFrom(written, "Index");
        List<String> passedOn = new ArrayList<>();
        List<DeadLetter> deadLetters = new ArrayList<>();
        try (CloseableIterator<ImportedEvent> out = indexed.collectAsync();
                CloseableIterator<DeadLetter> letters = written.getSideOutput(DeadLetters.TAG)
                        .union(indexed.getSideOutput(DeadLetters.TAG)).collectAsync()) {
            env.execute("sinks");
            out.forEachRemaining(event -> passedOn.add(event.getDocument().getId()));
            letters.forEachRemaining(deadLetters::add);
        }

        assertThat(mongo.getDatabase(database).getCollection("bank").countDocuments()).as("MongoDB takes all four")
                .isEqualTo(4);
        engine.indices(names).refresh(names.of("bank"));
        assertThat(engine.reader().count(List.of(names.of("bank")), null)).isEqualTo(3);
        assertThat(passedOn).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(deadLetters).singleElement().satisfies(letter -> {
            assertThat(letter.getStage()).isEqualTo(MetricNames.INDEX);
            assertThat(letter.getReasonClass()).isEqualTo(ReasonClass.REFUSED_BY_STORE);
            assertThat(letter.getReason()).contains("mapper_parsing_exception", "openingDate");
            assertThat(letter.getDocumentId()).isEqualTo("bad");
            assertThat(codec(ImportedEvent.class).decode(letter.getPayload().array()))
                    .as("the imported event, whole").isEqualTo(refused);
        });
    }
}
