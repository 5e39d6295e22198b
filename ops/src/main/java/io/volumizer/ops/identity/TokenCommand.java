package io.volumizer.ops.identity;

import java.util.concurrent.Callable;

import io.volumizer.options.Failures;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code bin/volumizer token <user>|--service}: prints an access token for curl and scripts. */
@Command(name = "token", mixinStandardHelpOptions = true, description = "Prints an access token of a demo user "
        + "(password grant) or of the service client (client credentials). Their secrets are this install's own, made "
        + "when Keycloak starts, in the state folder's " + LocalSecrets.FOLDER + "/; an exported $"
        + LocalSecrets.PASSWORD_VARIABLE + " (every user's), $" + LocalSecrets.PASSWORD_VARIABLE + "_<USER> or $"
        + LocalSecrets.CLIENT_SECRET_VARIABLE + " wins.",
        footer = {"%nExample:", "  TOKEN=$(bin/volumizer token admin)"})
public final class TokenCommand implements Callable<Integer> {

    @Mixin IssuerOptions issuer = new IssuerOptions();

    @Option(names = "--service", description = "The service client's token instead of a user's.")
    boolean service;

    @Parameters(arity = "0..1", paramLabel = "USER", description = "A demo user (admin, auditor-1, staff-ca-1, customer-<number>...).")
    String user;

    @Override
    public Integer call() throws Exception {
        if (service == (user != null)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "name a user, or --service (one of them)");
        }
        TokenClient tokens = issuer.client();
        System.out.println(service ? tokens.service() : tokens.user(user));
        return 0;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new TokenCommand()).setExecutionExceptionHandler(Failures::oneLine).execute(args));
    }
}
