// Copyright pinget authors. Licensed under the Apache License 2.0.

/**
 * Kafka's Deserializer as a pinget {@link io.pinget.ValueDecoder} ({@link
 * io.pinget.kafka.KafkaDecoders}). Needs kafka-clients 3.6 or later on the class path, which pinget
 * does not bring; the rest of pinget runs without it.
 */
package io.pinget.kafka;
