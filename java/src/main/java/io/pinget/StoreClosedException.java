// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

/** The store was closed before (or while waiting for) this call. */
public class StoreClosedException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  public StoreClosedException(String message) {
    super(message);
  }
}
