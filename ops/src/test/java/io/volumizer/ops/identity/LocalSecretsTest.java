package io.volumizer.ops.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The local identity provider's secrets: made once per install, each demo user's its own, owner-only files of the
 * git-ignored state folder, filled into the realms Keycloak imports (again, into a new database, when they change),
 * read back as they were filled in, and the environment's when exported.
 */
class LocalSecretsTest {

    private static final Path REALMS = Path.of("../conf/services/keycloak");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path state;

    private Path data() {
        return state.resolve("keycloak/data");
    }

    @Test
    void aUsersPasswordVariableIsItsNameAsAVariable() {
        assertThat(LocalSecrets.passwordVariable("staff-ca-1")).isEqualTo("VOLUMIZER_DEMO_PASSWORD_STAFF_CA_1");
        assertThat(LocalSecrets.passwordVariable("customer-0000000001")).isEqualTo("VOLUMIZER_DEMO_PASSWORD_CUSTOMER_0000000001");
        assertThat(LocalSecrets.passwordVariable("admin")).isEqualTo("VOLUMIZER_DEMO_PASSWORD_ADMIN");
    }

    @Test
    void keycloaksFirstStartMakesEachSecretOnceInOwnerOnlyFilesAndFillsThemIntoTheRealms() throws Exception {
        LocalSecrets secrets = new LocalSecrets(state, Map.of());

        String admin = secrets.prepareKeycloak(REALMS, data());

        JsonNode realm = JSON.readTree(data().resolve("import/volumizer-realm.json").toFile());
        Map<String, String> passwords = passwords(realm);
        assertThat(passwords).hasSizeGreaterThan(150).containsKeys("admin", "auditor-1", "staff-ca-1", "staff-ca-2");
        passwords.forEach((user, password) -> assertThat(secrets.password(user)).as(user).isEqualTo(password));
        assertThat(new HashSet<>(passwords.values())).as("each user's its own").hasSameSizeAs(passwords.values());
        assertThat(passwords.values()).allSatisfy(password -> assertThat(password).hasSizeGreaterThanOrEqualTo(24)
                .matches("[A-Za-z0-9_-]+"));
        assertThat(passwords.get("staff-ca-1")).isNotEqualTo(passwords.get("staff-ca-2"));
        assertThat(clientSecret(realm)).isEqualTo(secrets.clientSecret()).isNotIn(passwords.values());
        assertThat(admin).isEqualTo(secrets.adminPassword()).hasSizeGreaterThanOrEqualTo(24).isNotIn(passwords.values());
        // The other realm's admin is another user of the same name: the same password.
        assertThat(passwords(JSON.readTree(data().resolve("import/volumizer-other-realm.json").toFile())))
                .containsExactly(Map.entry("admin", passwords.get("admin")));

        assertThat(mode(secrets.folder())).isEqualTo("rwx------");
        try (Stream<Path> files = Files.list(secrets.folder())) {
            List<Path> made = files.toList();
            assertThat(made).hasSize(passwords.size() + 2); // and the client's secret, the bootstrap admin's password
            assertThat(made).allSatisfy(file -> assertThat(mode(file)).as("%s", file).isEqualTo("rw-------"));
        }
        try (Stream<Path> files = Files.list(data().resolve("import"))) {
            assertThat(files.toList()).hasSize(2).allSatisfy(file -> {
                assertThat(mode(file)).as("%s", file).isEqualTo("rw-------");
                assertThat(read(file)).doesNotContain("${VOLUMIZER_");
            });
        }
    }

    @Test
    void aRestartKeepsTheSecretsAndTheDatabase() throws Exception {
        LocalSecrets secrets = new LocalSecrets(state, Map.of());
        String admin = secrets.prepareKeycloak(REALMS, data());
        String staff = secrets.password("staff-ca-1");
        Path database = Files.writeString(data().resolve("database"), "kept");

        assertThat(new LocalSecrets(state, Map.of()).prepareKeycloak(REALMS, data())).isEqualTo(admin);

        assertThat(database).exists();
        assertThat(secrets.password("staff-ca-1")).isEqualTo(staff);
    }

    @Test
    void aNewSecretOrAChangedRealmMeansANewDatabaseAndAnotherImport() throws Exception {
        LocalSecrets secrets = new LocalSecrets(state, Map.of());
        secrets.prepareKeycloak(REALMS, data());
        String staff = secrets.password("staff-ca-1");
        Path database = Files.writeString(data().resolve("database"), "old");

        Files.delete(secrets.folder().resolve(LocalSecrets.passwordVariable("staff-ca-1")));
        secrets.prepareKeycloak(REALMS, data());

        assertThat(database).doesNotExist();
        assertThat(secrets.password("staff-ca-1")).isNotEqualTo(staff);
        assertThat(passwords(JSON.readTree(data().resolve("import/volumizer-realm.json").toFile())))
                .containsEntry("staff-ca-1", secrets.password("staff-ca-1"));

        Files.writeString(database, "old");
        Files.delete(secrets.folder().resolve(LocalSecrets.ADMIN_PASSWORD_VARIABLE));
        String admin = secrets.prepareKeycloak(REALMS, data());
        assertThat(database).as("only a new database gets the bootstrap admin").doesNotExist();
        assertThat(admin).isEqualTo(secrets.adminPassword());

        Path realms = Files.createDirectories(state.resolve("realms"));
        Files.writeString(realms.resolve("a-realm.json"), "{\"realm\": \"a\", \"secret\": \"${VOLUMIZER_CLIENT_SECRET}\"}");
        secrets.prepareKeycloak(realms, data());
        Files.writeString(database, "old");
        Files.writeString(realms.resolve("a-realm.json"), "{\"realm\": \"a\", \"enabled\": true}");
        secrets.prepareKeycloak(realms, data());
        assertThat(database).doesNotExist();
        try (Stream<Path> files = Files.list(data().resolve("import"))) {
            assertThat(files.map(file -> file.getFileName().toString())).containsExactly("a-realm.json");
        }
    }

    @Test
    void exportedVariablesWinAndChangingThemMeansANewDatabase() throws Exception {
        Map<String, String> environment = new HashMap<>(Map.of(
                LocalSecrets.PASSWORD_VARIABLE, "every \"demo\" user's \\ own",
                LocalSecrets.passwordVariable("staff-ca-1"), "staff-ca-1's",
                LocalSecrets.CLIENT_SECRET_VARIABLE, "the client's",
                LocalSecrets.ADMIN_PASSWORD_VARIABLE, "the admin's"));
        LocalSecrets secrets = new LocalSecrets(state, environment);

        assertThat(secrets.prepareKeycloak(REALMS, data())).isEqualTo("the admin's");

        JsonNode realm = JSON.readTree(data().resolve("import/volumizer-realm.json").toFile());
        assertThat(passwords(realm)).containsEntry("staff-ca-1", "staff-ca-1's").containsEntry("staff-ca-2", "every \"demo\" user's \\ own")
                .containsEntry("admin", "every \"demo\" user's \\ own");
        assertThat(clientSecret(realm)).isEqualTo("the client's");
        assertThat(secrets.password("staff-ca-2")).isEqualTo("every \"demo\" user's \\ own");
        assertThat(secrets.password("staff-ca-1")).isEqualTo("staff-ca-1's");
        assertThat(secrets.clientSecret()).isEqualTo("the client's");
        assertThat(secrets.folder()).as("nothing made").doesNotExist();

        Path database = Files.writeString(data().resolve("database"), "old");
        environment.remove(LocalSecrets.PASSWORD_VARIABLE);
        new LocalSecrets(state, environment).prepareKeycloak(REALMS, data());
        assertThat(database).doesNotExist();
        assertThat(new LocalSecrets(state, environment).password("staff-ca-2")).isNotEqualTo("every \"demo\" user's \\ own");
    }

    @Test
    void readingASecretNeverMakesOne() {
        LocalSecrets secrets = new LocalSecrets(state, Map.of());

        assertThatThrownBy(() -> secrets.password("staff-ca-1")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("$VOLUMIZER_DEMO_PASSWORD_STAFF_CA_1").hasMessageContaining("$VOLUMIZER_DEMO_PASSWORD ")
                .hasMessageContaining("bin/volumizer up keycloak");
        assertThatThrownBy(secrets::clientSecret).hasMessageContaining("$VOLUMIZER_CLIENT_SECRET");
        assertThat(secrets.folder()).doesNotExist();
    }

    @Test
    void aSecretIsWrittenIntoJsonAsAStringsContent() {
        assertThat(LocalSecrets.jsonString("a\"b\\c\nd")).isEqualTo("a\\\"b\\\\c\\u000ad");
        assertThat(new LocalSecrets(state, Map.of("VOLUMIZER_X", "$1 \\ \"")).render("{\"x\": \"${VOLUMIZER_X}\", \"y\": \"${role_user}\"}"))
                .isEqualTo("{\"x\": \"$1 \\\\ \\\"\", \"y\": \"${role_user}\"}");
    }

    /** bin/volumizer up keycloak runs the class from its source file, with no build: it must use the JDK alone. */
    @Test
    void binVolumizerRunsItFromItsSourceFile() throws Exception {
        Path source = Path.of("src/main/java/io/volumizer/ops/identity/LocalSecrets.java");
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                source.toString(), "keycloak", state.toString(), REALMS.toString(), data().toString());
        builder.environment().keySet().removeIf(name -> name.startsWith("VOLUMIZER_") || name.startsWith("KC_"));
        Process process = builder.redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();

        assertThat(process.exitValue()).isZero();
        assertThat(out.strip()).isEqualTo(new LocalSecrets(state, Map.of()).adminPassword());
        assertThat(data().resolve("import/volumizer-realm.json")).exists();
    }

    /** The secrets are in the state folder, which git ignores: they are never committed. */
    @Test
    void theStateFolderIsIgnoredByGit() throws Exception {
        Path root = Path.of("..").toAbsolutePath().normalize();
        assumeThat(Files.exists(root.resolve(".git"))).as("a git checkout").isTrue();
        Path secret = root.resolve(".volumizer").resolve(LocalSecrets.FOLDER).resolve(LocalSecrets.ADMIN_PASSWORD_VARIABLE);
        Process process;
        try {
            process = new ProcessBuilder("git", "-C", root.toString(), "check-ignore", "-q", secret.toString()).start();
        } catch (IOException noGit) {
            assumeThat(noGit).as("git installed").isNull();
            return;
        }
        assertThat(process.waitFor()).as("git check-ignore %s", secret).isZero();
    }

    private static Map<String, String> passwords(JsonNode realm) {
        Map<String, String> passwords = new HashMap<>();
        realm.path("users").forEach(user -> user.path("credentials").forEach(credential ->
                passwords.put(user.path("username").asText(), credential.path("value").asText())));
        return passwords;
    }

    private static String clientSecret(JsonNode realm) {
        Set<String> secrets = new HashSet<>();
        realm.path("clients").forEach(client -> {
            if (client.has("secret")) {
                secrets.add(client.path("secret").asText());
            }
        });
        assertThat(secrets).hasSize(1);
        return secrets.iterator().next();
    }

    private static String mode(Path path) {
        try {
            return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
