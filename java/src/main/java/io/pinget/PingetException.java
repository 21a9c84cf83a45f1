// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

/**
 * A RocksDB error (corruption, I/O, ...). Thrown by native code, which maps every status in one
 * place: CLOSED becomes {@link StoreClosedException}, INVALID_ARGUMENT becomes {@link
 * IllegalArgumentException}, NOT_FOUND is never thrown, everything else is a PingetException.
 */
public class PingetException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** pinget::Status::Code, in its order. */
  public enum Code {
    OK,
    NOT_FOUND,
    CORRUPTION,
    NOT_SUPPORTED,
    INVALID_ARGUMENT,
    IO_ERROR,
    CLOSED,
    BUSY,
    UNKNOWN
  }

  private final Code code;

  public PingetException(Code code, String message) {
    super(message);
    this.code = code;
  }

  /** Called by native code. */
  PingetException(int code, String message) {
    this(code >= 0 && code < Code.values().length ? Code.values()[code] : Code.UNKNOWN, message);
  }

  public Code code() {
    return code;
  }
}
