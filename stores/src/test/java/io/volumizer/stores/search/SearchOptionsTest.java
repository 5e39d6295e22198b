package io.volumizer.stores.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.volumizer.stores.search.SearchOptions.Credentials;
import picocli.CommandLine;

class SearchOptionsTest {

    @TempDir
    Path folder;

    private static SearchOptions parse(String... args) {
        SearchOptions options = new SearchOptions();
        new CommandLine(options).parseArgs(args);
        return options;
    }

    @Test
    void theNodesAreACommaSeparatedListUnderTheOldNameToo() {
        SearchOptions options = parse("--elasticsearch-url", "https://es-1:9200/es/,https://es-2:9200/es");
        options.validate();
        assertThat(options.nodes()).containsExactly(URI.create("https://es-1:9200/es/"), URI.create("https://es-2:9200/es"));
        assertThat(options.pathPrefix()).isEqualTo("/es");
        assertThat(parse().nodes()).containsExactly(URI.create("http://127.0.0.1:9200"));
        assertThat(parse().pathPrefix()).isEmpty();
        assertThat(parse().engine).isEqualTo(SearchOptions.Engine.auto);
    }

    @Test
    void aUrlThatNoEngineCouldBeReachedWithIsRefusedNamingTheOption() {
        assertThatThrownBy(() -> parse("--search-url", "https://elastic:secret@es:9200").validate())
                .hasMessageContaining("must not hold credentials").hasMessageContaining(SearchOptions.PASSWORD_ENV)
                .hasMessageNotContaining("secret");
        assertThatThrownBy(() -> parse("--search-url", "http://a:9200/es,http://b:9200").validate())
                .hasMessageContaining("same path");
        assertThatThrownBy(() -> parse("--search-url", "es:9200").validate()).hasMessageContaining("--search-url");
        assertThatThrownBy(() -> parse("--search-url", "ftp://es:9200").validate()).hasMessageContaining("--search-url");
        assertThatThrownBy(() -> parse("--search-url", ",").validate()).hasMessageContaining("at least one node");
        assertThatThrownBy(() -> parse("--search-url", "http://es:9200/?pretty").validate())
                .hasMessageContaining("no query");
    }

    @Test
    void credentialsComeFromTheEnvironmentWithTheUserFromAnOption() {
        SearchOptions anonymous = parse();
        SearchOptions user = parse("--search-username", "volumizer");

        assertThat(anonymous.credentials(Map.<String, String>of()::get)).isEqualTo(new Credentials.None());
        assertThat(user.credentials(Map.of(SearchOptions.PASSWORD_ENV, "pw")::get))
                .isEqualTo(new Credentials.Basic("volumizer", "pw"));
        assertThat(anonymous.credentials(Map.of(SearchOptions.API_KEY_ENV, "aWQ6a2V5")::get))
                .isEqualTo(new Credentials.ApiKey("aWQ6a2V5"));
        assertThat(anonymous.credentials(Map.of(SearchOptions.API_KEY_ENV, " ")::get)).as("blank is unset")
                .isEqualTo(new Credentials.None());
        assertThatThrownBy(() -> user.credentials(Map.<String, String>of()::get))
                .hasMessageContaining(SearchOptions.PASSWORD_ENV);
        assertThatThrownBy(() -> anonymous.credentials(Map.of(SearchOptions.PASSWORD_ENV, "pw")::get))
                .hasMessageContaining("without --search-username");
        assertThatThrownBy(() -> user.credentials(Map.of(SearchOptions.PASSWORD_ENV, "pw",
                SearchOptions.API_KEY_ENV, "aWQ6a2V5")::get)).hasMessageContaining("not both");
    }

    @Test
    void aRegionSignsRequestsForOpenSearchServiceInsteadOfAUserOrAKey() {
        SearchOptions signed = parse("--search-aws-region", "eu-west-1");

        assertThat(signed.credentials(Map.<String, String>of()::get)).isEqualTo(new Credentials.AwsSigV4("eu-west-1", "es"));
        assertThat(parse("--search-aws-region", "eu-west-1", "--search-aws-service", "aoss")
                .credentials(Map.<String, String>of()::get)).isEqualTo(new Credentials.AwsSigV4("eu-west-1", "aoss"));
        assertThatThrownBy(() -> signed.credentials(Map.of(SearchOptions.API_KEY_ENV, "aWQ6a2V5")::get))
                .hasMessageContaining("not two of them");
        assertThatThrownBy(() -> parse("--search-aws-region", "eu-west-1", "--search-username", "volumizer")
                .credentials(Map.of(SearchOptions.PASSWORD_ENV, "pw")::get)).hasMessageContaining("not two of them");
        assertThatThrownBy(() -> parse("--search-aws-region", " ").validate()).hasMessageContaining("--search-aws-region");
        assertThatThrownBy(() -> parse("--search-aws-region", "eu-west-1", "--search-aws-service", "aoss",
                "--search-engine", "elasticsearch").validate()).hasMessageContaining("OpenSearch Serverless");
    }

    @Test
    void aCredentialNeverPrintsItsSecretButSendsIt() {
        Credentials basic = new Credentials.Basic("volumizer", "s3cret");
        Credentials apiKey = new Credentials.ApiKey("aWQ6a2V5");

        assertThat(basic.toString()).contains("volumizer").doesNotContain("s3cret");
        assertThat(apiKey.toString()).doesNotContain("aWQ6a2V5");
        assertThat(basic.authorization()).isEqualTo("Basic dm9sdW1pemVyOnMzY3JldA==");
        assertThat(apiKey.authorization()).isEqualTo("ApiKey aWQ6a2V5");
        assertThat(new Credentials.None().authorization()).isNull();
    }

    @Test
    void aCaFileIsReadWhenAnEngineOpensAndMustHoldACertificate() throws Exception {
        assertThat(parse().trust()).as("the JVM's trust store").isNull();
        SearchOptions missing = parse("--search-ca-file", folder.resolve("missing.pem").toString());
        missing.validate(); // a client submitting jobs need not have it
        assertThatThrownBy(missing::trust).hasMessageContaining("--search-ca-file");
        Path empty = Files.writeString(folder.resolve("empty.pem"), "");
        assertThatThrownBy(() -> parse("--search-ca-file", empty.toString()).trust())
                .hasMessageContaining("holds no certificate");
    }
}
