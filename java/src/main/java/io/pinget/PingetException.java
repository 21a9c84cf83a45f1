// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

/**
 * An error that RocksDB reported (corruption, I/O, ...). Native code maps every status in one
 * place: Closed becomes {@link StoreClosedException}, InvalidArgument IllegalArgumentException,
 * NotFound is never thrown, every other code is a PingetException with that code. Every such
 * message reads "{@code <Code>: <message>}", the code named once.
 */
public class PingetException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** pinget::Status::Code, in its order (the loader checks it against the native table). */
  public enum Code {
    /** Not an error; never thrown. */
    OK,
    /** The key does not exist; never thrown. */
    NOT_FOUND,
    /** A file's bytes are damaged (a checksum mismatch, a malformed block). */
    CORRUPTION,
    /** The request cannot be served (a codec missing, a value of 2 GiB or more for Java). */
    NOT_SUPPORTED,
    /** A bad argument; thrown as IllegalArgumentException. */
    INVALID_ARGUMENT,
    /** The file system failed. */
    IO_ERROR,
    /** The store is closed; thrown as StoreClosedException. */
    CLOSED,
    /** RocksDB is busy (a lock, a conflicting operation). */
    BUSY,
    /** Any other RocksDB error; the message names it. */
    UNKNOWN
  }

  /** The status code. */
  private final Code code;

  /**
   * An exception with a code.
   *
   * @param code not null
   * @param message "{@code <Code>: <message>}"
   */
  public PingetException(Code code, String message) {
    super(message);
    this.code = code;
  }

  /**
   * The exception a status maps to: the one mapping, used by the JNI API and the FFM binding alike.
   * CLOSED is a {@link StoreClosedException}, INVALID_ARGUMENT an {@link IllegalArgumentException},
   * every other code (an unknown one as UNKNOWN) a PingetException with that code.
   *
   * @param code pinget::Status::Code's value (the ordinal of {@link Code}); not OK or NOT_FOUND
   * @param message "{@code <Code>: <message>}"
   * @return the exception to throw
   */
  public static RuntimeException of(int code, String message) {
    Code c = code >= 0 && code < CODES.length ? CODES[code] : Code.UNKNOWN;
    switch (c) {
      case CLOSED:
        return new StoreClosedException(message);
      case INVALID_ARGUMENT:
        return new IllegalArgumentException(message);
      default:
        return new PingetException(c, message);
    }
  }

  private static final Code[] CODES = Code.values();

  /**
   * The status code.
   *
   * @return the code RocksDB's error maps to
   */
  public Code code() {
    return code;
  }
}
