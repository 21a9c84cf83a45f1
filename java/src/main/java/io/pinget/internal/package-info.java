// Copyright pinget authors. Licensed under the Apache License 2.0.
/**
 * Not API: what pinget's own bindings in other packages share (the FFM binding's argument checks
 * and its access to a Store's read options; the cursors' batch loop; decode on read's per-thread
 * slots and batched loop; the decoders' size rule and staging limit). Public only because Java has
 * no narrower visibility across packages; it changes in any release. {@link
 * io.pinget.internal.BatchCursor}'s public methods are the API of {@code io.pinget.Cursor} and
 * {@code io.pinget.ffm.FfmCursor}, and stay theirs: name those classes, not it.
 */
package io.pinget.internal;
