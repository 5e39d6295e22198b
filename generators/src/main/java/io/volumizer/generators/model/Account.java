package io.volumizer.generators.model;

import java.time.LocalDate;

/** One of a customer's accounts; {@code index} is 0, 1 or 2 within the customer. */
public record Account(Customer customer, int index, String number, String type, LocalDate opened, String currency,
        long balanceLevelCents) {
}
