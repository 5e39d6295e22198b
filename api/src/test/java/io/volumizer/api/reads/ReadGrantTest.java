package io.volumizer.api.reads;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;

import org.bson.Document;
import org.bson.conversions.Bson;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.model.Filters;

import io.volumizer.api.internal.ApiMetrics;
import io.volumizer.schemas.acl.Principals;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.search.SearchQuery;
import io.volumizer.stores.search.SortField;

class ReadGrantTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ApiMetrics METRICS = new ApiMetrics();
    private static final String READERS = DocumentFields.READ_ACL;

    private static final ReadPolicy POLICY = new ReadPolicy();
    private static final Caller ADMIN = Caller.of("root", Set.of(Principals.ADMINISTRATORS));

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

        SearchQuery restricted = grant(ALICE, POLICY).restrict(search);

        assertThat(restricted.query()).isEqualTo(json("""
                {"bool": {"must": {"simple_query_string": {"query": "smith"}},
                 "filter": [{"term": {"parentId": "ac-1"}}, {"terms": {"readAcl": ["Everyone", "alice"]}}]}}"""));
        assertThat(restricted.withQuery(search.query())).as("the rest of the search").isEqualTo(search);
    }

    @Test
    void anotherQueryIsKeptBesideThePolicysFilter() throws Exception {
        SearchQuery restricted = grant(ALICE, POLICY).restrict(SearchQuery.of(json("""
                {"term": {"parentId": "ac-1"}}""")));

        assertThat(restricted.query()).isEqualTo(json("""
                {"bool": {"must": [{"term": {"parentId": "ac-1"}}],
                 "filter": [{"terms": {"readAcl": ["Everyone", "alice"]}}]}}"""));
    }

    @Test
    void aSearchWithoutAQueryFindsWhatThePolicysFilterMatches() throws Exception {
        SearchQuery restricted = grant(ALICE, POLICY).restrict(SearchQuery.of(null));

        assertThat(restricted.query()).isEqualTo(json("""
                {"bool": {"filter": [{"terms": {"readAcl": ["Everyone", "alice"]}}]}}"""));
    }

    @Test
    void aDocumentIsReadableWhenThePolicySaysSoForTheCaller() {
        Document forAlice = new Document(READERS, List.of("alice"));
        Document forBob = new Document(READERS, List.of("bob"));

        assertThat(grant(ALICE, POLICY).allows(forAlice)).isTrue();
        assertThat(grant(ALICE, POLICY).allows(forBob)).isFalse();
        assertThat(grant(Caller.of("bob", Set.of()), POLICY).allows(forAlice)).isFalse();
    }

    @Test
    void aListingFromMongoDbMatchesOnlyWhatTheCallerMayRead() {
        Bson restricted = grant(ALICE, POLICY).restrict(Filters.eq("parentId", "ac-1"));

        assertThat(restricted.toBsonDocument()).isEqualTo(Filters.and(Filters.eq("parentId", "ac-1"),
                Filters.in(READERS, Set.of(Principals.EVERYONE, "alice"))).toBsonDocument());
    }

    @Test
    void administratorsReadEverythingAndNothingElseDoesWithoutAReadAcl() throws Exception {
        ReadGrant admin = grant(ADMIN, POLICY);
        SearchQuery restricted = admin.restrict(SearchQuery.of(json("{\"bool\": {\"filter\": []}}")));

        assertThat(restricted.query().path("bool").path("filter")).containsExactly(json("{\"match_all\": {}}"));
        assertThat(admin.restrict(Filters.eq("parentId", "ac-1")).toBsonDocument())
                .isEqualTo(Filters.and(Filters.eq("parentId", "ac-1"), new Document()).toBsonDocument());
        assertThat(admin.allows(new Document(READERS, List.of("bob")))).isTrue();
        assertThat(admin.allows(new Document())).as("stored before ACLs").isTrue();
        assertThat(grant(ALICE, POLICY).allows(new Document())).as("stored before ACLs").isFalse();
    }
}
