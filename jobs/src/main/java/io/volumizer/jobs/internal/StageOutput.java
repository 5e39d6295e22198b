package io.volumizer.jobs.internal;

import org.apache.flink.streaming.api.datastream.DataStream;

import io.volumizer.schemas.event.DeadLetter;

/** What a stage of a job graph produced, and what it could not process (for the dead-letter topic). */
public record StageOutput<T>(DataStream<T> stream, DataStream<DeadLetter> deadLetters) {
}
