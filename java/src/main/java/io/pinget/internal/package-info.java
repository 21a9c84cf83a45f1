// Copyright pinget authors. Licensed under the Apache License 2.0.
/**
 * Not API: what pinget's own bindings in other packages share (the FFM binding's argument checks
 * and its access to a Store's read options). Public only because Java has no narrower visibility
 * across packages; it changes in any release.
 */
package io.pinget.internal;
