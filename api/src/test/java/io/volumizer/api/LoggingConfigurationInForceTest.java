package io.volumizer.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.Test;

/**
 * The API and the commands of this module log as every command does (volumizer-log4j2.xml), though a dependency,
 * the Kubernetes operator's API, ships a log4j2.properties that Log4j would otherwise choose: the libraries' INFO, in
 * colour, on the terminal and in the API's log.
 */
class LoggingConfigurationInForceTest {

    @Test
    void theSharedConfigurationIsInForceNotALibrarys() {
        assertThat(getClass().getClassLoader().getResource("log4j2.properties")).as("a library's configuration").isNotNull();

        LoggerContext context = (LoggerContext) LogManager.getContext(false);

        assertThat(context.getConfiguration().getConfigurationSource().getLocation()).endsWith("/volumizer-log4j2.xml");
    }
}
