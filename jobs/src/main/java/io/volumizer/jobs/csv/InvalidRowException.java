package io.volumizer.jobs.csv;

/** Why a row cannot become a document: its message names the column and the value at fault. */
public final class InvalidRowException extends Exception {

    private static final long serialVersionUID = 1L;

    public InvalidRowException(String message) {
        super(message);
    }
}
