package io.volumizer.options;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.ConfigurationFactory;
import org.apache.logging.log4j.util.PropertiesUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one logging configuration of the commands and the API (volumizer-log4j2.xml): what reaches the terminal (our
 * own messages, anything's warnings, no colour codes off a terminal) and what goes to the state folder's log (the
 * libraries' INFO, at the level VOLUMIZER_LOG_LEVEL or -Dvolumizer.log.level sets).
 */
class LoggingConfigurationTest {

    private static final String STATE = "volumizer.state";
    private static final String LEVEL = "volumizer.log.level";

    @TempDir
    Path state;

    private final ByteArrayOutputStream terminal = new ByteArrayOutputStream();
    private PrintStream stderr;

    @BeforeEach
    void captureTheTerminal() {
        stderr = System.err;
        System.setErr(new PrintStream(terminal, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restore() {
        System.setErr(stderr);
        System.clearProperty(STATE);
        System.clearProperty(LEVEL);
    }

    @Test
    void log4jIsToldOurConfigurationBeforeItLooksForOne() {
        assertThat(PropertiesUtil.getProperties().getStringProperty("log4j2.configurationFile"))
                .isEqualTo("volumizer-log4j2.xml");
    }

    @Test
    void aLibrarysInfoGoesToTheStateFoldersLogAndItsWarningsAndOurOwnMessagesToTheTerminal() throws IOException {
        System.setProperty(STATE, state.toString());

        try (LoggerContext context = configured()) {
            Logger kafka = context.getLogger("org.apache.kafka.clients.admin.AdminClientConfig");
            kafka.info("AdminClientConfig values: bootstrap.servers = [127.0.0.1:9092]");
            kafka.debug("a Kafka detail");
            context.getLogger("com.mongodb.internal.connection").warn("a MongoDB warning");
            context.getLogger("io.volumizer.stores.mongodb.MongoReads").info("our own message");
        }

        assertThat(terminal.toString(StandardCharsets.UTF_8)).contains("a MongoDB warning", "our own message")
                .doesNotContain("AdminClientConfig values").doesNotContain("\u001B[");
        assertThat(Files.readString(state.resolve("logs/volumizer.log")))
                .contains("AdminClientConfig values", "a MongoDB warning", "our own message")
                .doesNotContain("a Kafka detail");
    }

    @Test
    void theLibrariesLevelIsSettable() throws IOException {
        System.setProperty(STATE, state.toString());
        System.setProperty(LEVEL, "DEBUG");

        try (LoggerContext context = configured()) {
            context.getLogger("org.apache.kafka.clients.admin.AdminClientConfig").debug("a Kafka detail");
        }

        assertThat(Files.readString(state.resolve("logs/volumizer.log"))).contains("a Kafka detail");
        assertThat(terminal.toString(StandardCharsets.UTF_8)).doesNotContain("a Kafka detail");
    }

    @Test
    void withoutAStateFolderOnlyTheTerminalIsWritten() {
        try (LoggerContext context = configured()) {
            context.getLogger("org.apache.kafka.clients.admin.AdminClientConfig").info("AdminClientConfig values");
            context.getLogger("org.apache.kafka.clients.NetworkClient").warn("a Kafka warning");

            assertThat(context.getConfiguration().getAppenders()).isEqualTo(Map.of("terminal",
                    context.getConfiguration().getAppender("terminal")));
        }

        assertThat(terminal.toString(StandardCharsets.UTF_8)).contains("a Kafka warning")
                .doesNotContain("AdminClientConfig values");
    }

    /** A logger context of its own, read from the configuration Log4j is told to use, as a command's would be. */
    private static LoggerContext configured() {
        String location = PropertiesUtil.getProperties().getStringProperty("log4j2.configurationFile");
        LoggerContext context = new LoggerContext("test");
        try {
            URI configuration = LoggingConfigurationTest.class.getClassLoader().getResource(location).toURI();
            context.start(ConfigurationFactory.getInstance().getConfiguration(context, "test", configuration));
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        return context;
    }
}
