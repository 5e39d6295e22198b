package io.volumizer.api.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.api.internal.ApiException;
import io.volumizer.api.internal.Cursors;
import io.volumizer.api.internal.QueryParameters;
import io.volumizer.api.internal.RepositorySearch;
import io.volumizer.generators.BankGenerator;
import io.volumizer.stores.search.Aggregation;
import io.volumizer.stores.search.IndexLayout;
import io.volumizer.stores.search.IndexProfile;
import io.volumizer.stores.search.SearchQuery;
import io.volumizer.stores.search.SortField;

class SearchRequestTest {

    private static SearchRequest parse(Map<String, String> parameters) {
        Map<String, List<String>> values = new java.util.HashMap<>();
        parameters.forEach((name, value) -> values.put(name, List.of(value)));
        return SearchRequest.parse(new QueryParameters(values, SearchRequest.PARAMETERS), null, 100,
                Cursors.sealedWith("test"), "alice");
    }

    private static String field(Map<String, String> parameters) {
        try {
            parse(parameters);
        } catch (ApiException e) {
            assertThat(e.status()).isEqualTo(400);
            return e.field();
        }
        throw new AssertionError("accepted: " + parameters);
    }

    @Test
    void userTextIsAJsonValueOfTheQueryNeverItsSyntax() throws Exception {
        String hostile = "a\\\"}},{\"match_all\":{}} \\\"";
        JsonNode query = new ObjectMapper().readTree(parse(Map.of("q", hostile, "type", "Statement,Account")).toQuery()
                .query().toString());
        assertThat(query.path("bool").path("must").path("simple_query_string").path("query").asText()).isEqualTo(hostile);
        assertThat(query.path("bool").path("filter").get(0).path("terms").path("type").toString())
                .isEqualTo("[\"Statement\",\"Account\"]");
    }

    @Test
    void filtersSortsAndAggregationsBecomeTheSearch() {
        SearchQuery search = parse(Map.of("state", "ca,NY", "from", "2025-01-01", "to", "2025-01-31", "sort", "-date",
                "aggs", "month,state", "limit", "7")).toQuery();
        assertThat(search.size()).isEqualTo(7);
        assertThat(search.countUpTo()).isEqualTo(10_000);
        assertThat(search.query().path("bool").path("filter").get(0).path("terms").path("ancestorIds").toString())
                .isEqualTo("[\"st-CA\",\"st-NY\"]");
        assertThat(search.query().path("bool").path("filter").get(1).path("range").path("created").path("lte").asText())
                .isEqualTo("2025-01-31T23:59:59.999Z");
        assertThat(search.sort()).containsExactly(SortField.desc("created"), SortField.asc("id"));
        assertThat(search.aggregations()).containsExactly(new Aggregation.Terms("state", "ancestorIds", 60, "st-.*"),
                new Aggregation.Monthly("month", "created", "yyyy-MM"));
        assertThat(parse(Map.of("q", "smith")).toQuery().sort()).containsExactly(SortField.relevance(), SortField.asc("id"));
    }

    @Test
    void relevanceIsTheDefaultSortWithATextQueryAndNameWithout() {
        assertThat(parse(Map.of("q", "smith")).sort()).isEqualTo(SearchRequest.Sort.relevance);
        assertThat(parse(Map.of()).sort()).isEqualTo(SearchRequest.Sort.name);
    }

    @Test
    void badInputNamesItsParameter() {
        assertThat(field(Map.of("q", "\"open"))).isEqualTo("q");
        assertThat(field(Map.of("q", "(a | b"))).isEqualTo("q");
        assertThat(field(Map.of("q", "a)"))).isEqualTo("q");
        assertThat(field(Map.of("q", "x".repeat(513)))).isEqualTo("q");
        assertThat(field(Map.of("limit", "101"))).isEqualTo("limit");
        assertThat(field(Map.of("limit", "0"))).isEqualTo("limit");
        assertThat(field(Map.of("type", "Statement;drop"))).isEqualTo("type");
        assertThat(field(Map.of("aggs", "type,colour"))).isEqualTo("aggs");
        assertThat(field(Map.of("to", "31/01/2025"))).isEqualTo("to");
        assertThat(field(Map.of("sort", "random"))).isEqualTo("sort");
        assertThatThrownBy(() -> new QueryParameters(Map.of("q", List.of("a", "b")), Set.of("q")))
                .isInstanceOf(ApiException.class).hasMessageContaining("2 times");
    }

    @Test
    void eachRepositorysPartOfASearchCarriesTheRoutingValueOfItsLayoutsPropertyWhereTheSelectionTakesOne() {
        IndexLayout byCustomer = new IndexLayout(3, null, null, null, BankGenerator.CUSTOMER_NUMBER, IndexProfile.METADATA);
        Map<String, IndexLayout> layouts = Map.of("east", byCustomer, "west", byCustomer, "archives", IndexLayout.TEMPLATE);
        SearchRequest oneCustomer = parse(Map.of("customer", "0000000042"));
        assertThat(byRouting(oneCustomer, List.of("east"), layouts)).isEqualTo(Map.of("0000000042", List.of("east")));
        assertThat(byRouting(oneCustomer, List.of("east", "west"), layouts))
                .isEqualTo(Map.of("0000000042", List.of("east", "west")));
        Map<String, List<String>> withArchives = new HashMap<>();
        withArchives.put("0000000042", List.of("east", "west"));
        withArchives.put(null, List.of("archives"));
        assertThat(byRouting(oneCustomer, List.of("east", "archives", "west"), layouts)).as("archives are routed by id")
                .isEqualTo(withArchives);
        assertThat(byRouting(oneCustomer, List.of(), layouts)).as("all of the engine's repositories")
                .isEqualTo(Collections.singletonMap(null, List.of()));
        assertThat(byRouting(parse(Map.of("customer", "0000000042,0000000043")), List.of("east"), layouts))
                .isEqualTo(Collections.singletonMap(null, List.of("east")));
        assertThat(byRouting(parse(Map.of("type", "Statement")), List.of("east"), layouts))
                .isEqualTo(Collections.singletonMap(null, List.of("east")));
        assertThat(field(Map.of("customer", "42a"))).isEqualTo("customer");
    }

    private static Map<String, List<String>> byRouting(SearchRequest request, List<String> searched,
            Map<String, IndexLayout> layouts) {
        return RepositorySearch.byRouting(searched, layouts, request::routingValue);
    }

    @Test
    void repositoriesAreACommaSeparatedListAndAnAggregation() throws Exception {
        SearchRequest request = parse(Map.of("repository", "east,west", "aggs", "repository"));
        assertThat(request.repositories()).containsExactly("east", "west");
        assertThat(request.toQuery().aggregations()).containsExactly(new Aggregation.Terms("repository", "repository", 100, null));
        assertThat(field(Map.of("repository", "east,Bad!"))).isEqualTo("repository");
    }

    @Test
    void aSearchWithinItsBudgetRunsAndOnePastItIsRefused() {
        parse(Map.of("q", "stat* acc* \"a* b*\" letter"));
        assertThatThrownBy(() -> parse(Map.of("q", "st*"))).as("a short prefix")
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.error()).isEqualTo("query_too_expensive"));
        assertThatThrownBy(() -> parse(Map.of("q", "a*"))).isInstanceOf(ApiException.class);
        assertThatThrownBy(() -> parse(Map.of("q", "word ".repeat(5) + "abc* ".repeat(11)))).as("eleven prefixes")
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.error()).isEqualTo("query_too_expensive"));
        parse(Map.of("q", "abc* ".repeat(10)));
    }
}
