package io.volumizer.generators.model;

import java.time.YearMonth;
import java.util.List;

/** A monthly statement; closing = opening + the sum of the operations, to the cent. */
public record Statement(Account account, int index, YearMonth period, long openingCents, long closingCents,
        List<Operation> operations) {
}
