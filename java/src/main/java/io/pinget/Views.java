// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.nio.ByteBuffer;

/**
 * Read-only direct ByteBuffers that native code re-points at pinned bytes. Each view is made once
 * per owner; its attachment is the owner, so the view (and any slice of it) keeps the owner, and
 * thus the pin, reachable.
 */
final class Views {
  /** False if this JDK's buffers cannot be re-pointed, or -Dpinget.views.noRepoint=true. */
  static final boolean REPOINTED =
      NativePinned.canRepoint() && !Boolean.getBoolean("pinget.views.noRepoint");

  private static final ByteBuffer TEMPLATE = NativePinned.emptyView().asReadOnlyBuffer();

  private Views() {}

  /** A new view attached to owner, showing nothing; null when views are not re-pointed. */
  static ByteBuffer attachedTo(Object owner) {
    if (!REPOINTED) {
      return null;
    }
    ByteBuffer view = TEMPLATE.duplicate();
    NativePinned.attach(view, owner);
    return view;
  }

  /**
   * Resets position and mark of a view that native code has just re-pointed (it sets address,
   * capacity and limit only: jni_views.h). Call after every native call that re-points views, on
   * every path out of it, before the view is handed out.
   */
  static void reset(ByteBuffer view) {
    if (view != null) {
      view.clear();
    }
  }

  /** The fallback: a new read-only buffer over what native code returned. */
  static ByteBuffer readOnly(ByteBuffer buffer) {
    return buffer.asReadOnlyBuffer();
  }
}
