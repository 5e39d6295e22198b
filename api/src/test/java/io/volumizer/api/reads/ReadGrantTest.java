package io.volumizer.api.reads;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;

import org.bson.Document;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.api.internal.ApiMetrics;
import io.volumizer.stores.search.SearchQuery;
import io.volumizer.stores.search.SortField;

class ReadGrantTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ApiMetrics METRICS = new ApiMetrics();
    private static final String READERS = "readers";

    /** A policy of the kind per-document permissions make: a document names the principals that may read it. */
    private static final ReadPolicy BY_READERS = new ReadPolicy() {

        @Override
        public ObjectNode searchFilter(Caller caller) {
            ObjectNode terms = JSON.createObjectNode();
            ArrayNode principals = terms.putObject("terms").putArray(READERS);
            caller.principals().stream().sorted().forEach(principals::add);
            return terms;
        }

        @Override
        public boolean mayRead(Caller caller, Document document) {
            return document.getList(READERS, String.class, List.of()).stream().anyMatch(caller.principals()::contains);
        }
    };

    private static final Caller ALICE = Caller.of("alice", Set.of());

    private static ReadGrant grant(Caller caller, ReadPolicy policy) {
        return new ReadGrant(caller, "/api/v1/documents/{id}", policy, METRICS);
    }

    private static ObjectNode json(String text) throws Exception {
        return (ObjectNode) JSON.readTree(text);
    }

    @Test
    void thePolicysFilterJoinsTheFiltersOfTheSearchLeavingTheRestAsItWas() throws Exception {
        SearchQuery search = SearchQuery.of(json("""
                {"bool": {"must": {"simple_query_string": {"query": "smith"}},
                 "filter": [{"term": {"parentId": "ac-1"}}]}}""")).withSize(5).withSort(SortField.asc("name"));

        SearchQuery restricted = grant(ALICE, BY_READERS).restrict(search);

        assertThat(restricted.query()).isEqualTo(json("""
                {"bool": {"must": {"simple_query_string": {"query": "smith"}},
                 "filter": [{"term": {"parentId": "ac-1"}}, {"terms": {"readers": ["Everyone", "alice"]}}]}}"""));
        assertThat(restricted.withQuery(search.query())).as("the rest of the search").isEqualTo(search);
    }

    @Test
    void anotherQueryIsKeptBesideThePolicysFilter() throws Exception {
        SearchQuery restricted = grant(ALICE, BY_READERS).restrict(SearchQuery.of(json("""
                {"term": {"parentId": "ac-1"}}""")));

        assertThat(restricted.query()).isEqualTo(json("""
                {"bool": {"must": [{"term": {"parentId": "ac-1"}}],
                 "filter": [{"terms": {"readers": ["Everyone", "alice"]}}]}}"""));
    }

    @Test
    void aSearchWithoutAQueryFindsWhatThePolicysFilterMatches() throws Exception {
        SearchQuery restricted = grant(ALICE, BY_READERS).restrict(SearchQuery.of(null));

        assertThat(restricted.query()).isEqualTo(json("""
                {"bool": {"filter": [{"terms": {"readers": ["Everyone", "alice"]}}]}}"""));
    }

    @Test
    void aDocumentIsReadableWhenThePolicySaysSoForTheCaller() {
        Document forAlice = new Document(READERS, List.of("alice"));
        Document forBob = new Document(READERS, List.of("bob"));

        assertThat(grant(ALICE, BY_READERS).allows(forAlice)).isTrue();
        assertThat(grant(ALICE, BY_READERS).allows(forBob)).isFalse();
        assertThat(grant(Caller.of("bob", Set.of()), BY_READERS).allows(forAlice)).isFalse();
    }

    @Test
    void todayEveryCallerReadsEverything() throws Exception {
        ReadGrant grant = grant(Caller.of("bob", Set.of()), ReadPolicy.EVERYTHING);
        SearchQuery restricted = grant.restrict(SearchQuery.of(json("{\"bool\": {\"filter\": []}}")));

        assertThat(restricted.query().path("bool").path("filter")).containsExactly(json("{\"match_all\": {}}"));
        assertThat(grant.allows(new Document(READERS, List.of("bob")))).isTrue();
        assertThat(grant.allows(new Document())).isTrue();
    }
}
