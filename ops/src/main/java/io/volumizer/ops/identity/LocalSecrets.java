package io.volumizer.ops.identity;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The local identity provider's secrets, in one place: the Keycloak master realm's bootstrap administrator's
 * password, each demo user's own password and the service client's secret. A secret is the environment variable of
 * its name when that is exported (for a demo user, {@code VOLUMIZER_DEMO_PASSWORD_<USER>}, else
 * {@code VOLUMIZER_DEMO_PASSWORD}: every demo user's), else this install's own: random, made once into the state
 * folder's {@code secrets/<NAME>} (mode 600, the folder 700; the state folder is git-ignored) when
 * {@code bin/volumizer up keycloak} starts Keycloak, and read from there by {@link TokenClient}: bin/volumizer token,
 * the tests, load tests and benchmarks.
 *
 * <p>At Keycloak's start ({@link #main}) the realm files (conf/services/keycloak, written by {@link DemoRealm}) are
 * rendered with each {@code ${VOLUMIZER_...}} filled in into Keycloak's import folder, and its data folder is made anew
 * (so that the realms are imported again and the bootstrap administrator, which Keycloak makes only with a new master
 * realm, is created) whenever the realms or any of their secrets change.
 *
 * <p>This file uses the JDK alone: bin/volumizer runs it from its source ({@code java LocalSecrets.java keycloak ...}),
 * with no build.
 */
public final class LocalSecrets {

    /** The folder under the state folder that holds the secrets, a file per secret named after its variable. */
    public static final String FOLDER = "secrets";
    /** The master realm's bootstrap administrator's password (Keycloak 26 reads it from this variable). */
    public static final String ADMIN_PASSWORD_VARIABLE = "KC_BOOTSTRAP_ADMIN_PASSWORD";
    /** Every demo user's password when exported; a user's own is this with {@code _<USER>} appended. */
    public static final String PASSWORD_VARIABLE = "VOLUMIZER_DEMO_PASSWORD";
    /** The service client's secret (client credentials). */
    public static final String CLIENT_SECRET_VARIABLE = "VOLUMIZER_CLIENT_SECRET";
    /** In Keycloak's data folder: a digest of the realms it imported and their secrets. */
    static final String STAMP = "volumizer-realms.sha256";

    /** A secret the realm files name: {@code ${VOLUMIZER_...}} (Keycloak's own {@code ${...}} are lower case). */
    static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{(VOLUMIZER_[A-Z0-9_]+)}");

    private static final int RANDOM_BYTES = 24; // 32 characters
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY_FOLDER =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));

    private final Path folder;
    private final Map<String, String> environment;

    /** The secrets of a state folder, with the environment given (exported variables win). */
    public LocalSecrets(Path state, Map<String, String> environment) {
        this.folder = state.resolve(FOLDER);
        this.environment = Map.copyOf(environment);
    }

    /** The secrets of this process's state folder ({@link #stateFolder()}) and environment. */
    public static LocalSecrets local() {
        return new LocalSecrets(stateFolder(), System.getenv());
    }

    /**
     * This process's state folder: the system property {@code volumizer.state} (bin/volumizer sets it for every Java
     * main, the root POM for the integration tests), else {@code $VOLUMIZER_STATE} (exported by conf/volumizer.conf to
     * what bin/volumizer starts), else the {@code .volumizer} of the checkout above the working directory.
     */
    public static Path stateFolder() {
        String property = System.getProperty("volumizer.state");
        if (property != null && !property.isBlank()) {
            return Path.of(property);
        }
        String variable = System.getenv("VOLUMIZER_STATE");
        if (variable != null && !variable.isBlank()) {
            return Path.of(variable);
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isExecutable(dir.resolve("bin/volumizer"))) {
                return dir.resolve(".volumizer");
            }
        }
        return Path.of(".volumizer").toAbsolutePath();
    }

    /** Where the generated secrets are. */
    public Path folder() {
        return folder;
    }

    /** The variable of a demo user's own password: {@code VOLUMIZER_DEMO_PASSWORD_STAFF_CA_1} for staff-ca-1. */
    public static String passwordVariable(String user) {
        return PASSWORD_VARIABLE + "_" + user.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
    }

    /** A demo user's password (the same in every realm of the provider that has that user). */
    public String password(String user) {
        return existing(passwordVariable(user), "user " + user);
    }

    /** The service client's secret. */
    public String clientSecret() {
        return existing(CLIENT_SECRET_VARIABLE, "the service client");
    }

    /** The master realm's bootstrap administrator's password. */
    public String adminPassword() {
        return existing(ADMIN_PASSWORD_VARIABLE, "Keycloak's bootstrap administrator");
    }

    private String existing(String name, String whose) {
        String value = value(name);
        if (value == null) {
            throw new IllegalStateException("no secret of " + whose + ": neither $" + name
                    + (name.startsWith(PASSWORD_VARIABLE + "_") ? " nor $" + PASSWORD_VARIABLE : "")
                    + " is exported and " + folder.resolve(name) + " does not exist (made when bin/volumizer up keycloak starts "
                    + "Keycloak: restart one started before)");
        }
        return value;
    }

    /** The secret's value: the environment's, else the file's; null when neither has one. */
    String value(String name) {
        String exported = environment.get(name);
        if (exported == null && name.startsWith(PASSWORD_VARIABLE + "_")) {
            exported = environment.get(PASSWORD_VARIABLE);
        }
        if (exported != null && !exported.isEmpty()) {
            return exported;
        }
        Path file = folder.resolve(name);
        try {
            String stored = Files.isRegularFile(file) ? Files.readString(file).strip() : "";
            return stored.isEmpty() ? null : stored;
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + file, e);
        }
    }

    /** The secret's value, made (random) and written once when neither the environment nor the folder has one. */
    String valueOrMade(String name) {
        String value = value(name);
        if (value != null) {
            return value;
        }
        byte[] random = new byte[RANDOM_BYTES];
        RANDOM.nextBytes(random);
        String made = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        Path file = folder.resolve(name);
        try {
            if (!Files.isDirectory(folder)) {
                Files.createDirectories(folder.getParent());
                try {
                    Files.createDirectory(folder, OWNER_ONLY_FOLDER);
                } catch (FileAlreadyExistsException e) {
                    // made meanwhile
                }
            }
            try (SeekableByteChannel channel = Files.newByteChannel(file,
                    Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), OWNER_ONLY)) {
                channel.write(ByteBuffer.wrap((made + "\n").getBytes(StandardCharsets.UTF_8)));
            }
            return made;
        } catch (FileAlreadyExistsException e) {
            // Made meanwhile by another start, or empty: the file is the truth.
            String stored = value(name);
            if (stored == null) {
                throw new IllegalStateException(file + " is empty: delete it, and a new secret is made");
            }
            return stored;
        } catch (IOException e) {
            throw new UncheckedIOException("could not write " + file, e);
        }
    }

    /** A realm file's text with each {@code ${VOLUMIZER_...}} replaced by its secret (a JSON string's content). */
    String render(String template) {
        Matcher matcher = PLACEHOLDER.matcher(template);
        return matcher.replaceAll(placeholder -> Matcher.quoteReplacement(jsonString(valueOrMade(placeholder.group(1)))));
    }

    /**
     * Prepares Keycloak's data folder: the realm files of {@code realms} rendered with their secrets into its
     * {@code import} folder (mode 600), in a new data folder when the realms or their secrets are not those it holds
     * (its digest, {@value #STAMP}, says), else left as it is. Returns the bootstrap administrator's password.
     */
    public String prepareKeycloak(Path realms, Path data) throws IOException {
        Map<String, String> rendered = new TreeMap<>();
        try (Stream<Path> files = Files.list(realms)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".json")).sorted().toList()) {
                rendered.put(file.getFileName().toString(), render(Files.readString(file)));
            }
        }
        String admin = valueOrMade(ADMIN_PASSWORD_VARIABLE);
        MessageDigest digest = sha256();
        digest.update((admin + "\n").getBytes(StandardCharsets.UTF_8));
        rendered.forEach((name, text) -> digest.update((name + "\n" + text + "\n").getBytes(StandardCharsets.UTF_8)));
        String stamp = HexFormat.of().formatHex(digest.digest());

        Path stampFile = data.resolve(STAMP);
        if (!Files.isRegularFile(stampFile) || !Files.readString(stampFile).strip().equals(stamp)) {
            deleteTree(data);
            Path imports = Files.createDirectories(data.resolve("import"));
            for (Map.Entry<String, String> file : rendered.entrySet()) {
                try (SeekableByteChannel channel = Files.newByteChannel(imports.resolve(file.getKey()),
                        Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), OWNER_ONLY)) {
                    channel.write(ByteBuffer.wrap(file.getValue().getBytes(StandardCharsets.UTF_8)));
                }
            }
            Files.writeString(stampFile, stamp + "\n");
        }
        return admin;
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(root)) {
            paths = walk.sorted(Comparator.reverseOrder()).toList();
        }
        for (Path path : paths) {
            Files.delete(path);
        }
    }

    /** A value as the content of a JSON string. */
    static String jsonString(String value) {
        StringBuilder json = new StringBuilder(value.length());
        for (char c : value.toCharArray()) {
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        return json.toString();
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * {@code keycloak <state folder> <realm files' folder> <Keycloak's data folder>}: makes the secrets Keycloak needs,
     * prepares its data folder ({@link #prepareKeycloak}) and prints the bootstrap administrator's password, which
     * bin/volumizer gives Keycloak in its environment.
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 4 || !args[0].equals("keycloak")) {
            System.err.println("usage: LocalSecrets keycloak <state folder> <realm files' folder> <Keycloak's data folder>");
            System.exit(2);
        }
        LocalSecrets secrets = new LocalSecrets(Path.of(args[1]), System.getenv());
        System.out.println(secrets.prepareKeycloak(Path.of(args[2]), Path.of(args[3])));
    }
}
