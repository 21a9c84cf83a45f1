// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

/** The store was closed before (or while waiting for) this call. */
public class StoreClosedException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  /**
   * An exception for a call on a closed store.
   *
   * @param message "{@code Closed: <message>}"
   */
  public StoreClosedException(String message) {
    super(message);
  }
}
