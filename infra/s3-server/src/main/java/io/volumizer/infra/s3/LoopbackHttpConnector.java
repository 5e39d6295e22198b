package io.volumizer.infra.s3;

import org.apache.catalina.connector.Connector;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;

/**
 * Binds S3Mock's plain-HTTP connector to the address its TLS connector is bound to ({@code server.address}). S3Mock
 * adds that connector itself, with a port setting but no address, so it listened on every interface. Added to
 * S3Mock's application context with {@code --spring.main.sources=io.volumizer.infra.s3.LoopbackHttpConnector}.
 */
public class LoopbackHttpConnector implements BeanPostProcessor, EnvironmentAware {

    private String address;

    @Override
    public void setEnvironment(Environment environment) {
        address = environment.getRequiredProperty("server.address");
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String name) {
        if (bean instanceof Connector connector) {
            connector.setProperty("address", address);
        }
        return bean;
    }
}
