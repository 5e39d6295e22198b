package io.volumizer.generators.render;

import io.volumizer.generators.BlobKey;
import io.volumizer.generators.model.Account;
import io.volumizer.generators.model.BankModel;
import io.volumizer.generators.model.Customer;

/** Renders any generated blob from its key: the just-in-time path used by sinks, the API and the CLI. */
public final class Renditions {

    private Renditions() {
    }

    public static byte[] render(BlobKey key) {
        BankModel model = new BankModel(key.settings());
        Customer customer = model.customer(key.customer());
        return switch (key.kind()) {
            case IDCARD -> IdCardJpeg.render(customer, key.settings().seed());
            case LETTER -> OpeningLetterDocx.render(model.account(customer, key.account()));
            case STATEMENT -> {
                Account account = model.account(customer, key.account());
                if (key.statement() < 0 || key.statement() >= key.settings().statementsPerAccount()) {
                    throw new IllegalArgumentException("no statement " + key.statement() + " in " + key.format());
                }
                yield StatementPdf.render(model.statement(account, key.statement()));
            }
        };
    }
}
