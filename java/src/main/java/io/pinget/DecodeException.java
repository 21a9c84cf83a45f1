// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

/**
 * A value that a built-in decoder ({@link Decoders}) cannot decode: a size other than the one the
 * type needs (a long of 3 bytes), or bytes that are not what the decoder reads (malformed UTF-8 for
 * {@link Decoders#utf8Strict()}). The message names the decoder, the size and what was wrong.
 * Thrown after the pin is released.
 */
public class DecodeException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /**
   * A decoding failure.
   *
   * @param message what was decoded and what was wrong
   */
  public DecodeException(String message) {
    super(message);
  }

  /**
   * A decoding failure with its cause.
   *
   * @param message what was decoded and what was wrong
   * @param cause the underlying error
   */
  public DecodeException(String message, Throwable cause) {
    super(message, cause);
  }
}
