package io.volumizer.generators.model;

import java.time.LocalDate;

/** A line of a statement: negative amounts are debits. */
public record Operation(LocalDate date, String description, String counterparty, long amountCents) {
}
