// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.Buffer;
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

  /** Where a view that shows nothing points: a valid address, nothing readable (capacity 0). */
  static final long NOTHING = NativePinned.addressOf(TEMPLATE);

  // Java-side re-pointing (point, pointAtNothing): sun.misc.Unsafe's writes of Buffer.address and
  // Buffer.capacity, through method handles, as lmdbjava re-points its buffers. A JNI field write
  // from native code is a call into the VM (about 10 ns each here; a cursor made four per entry);
  // these are plain stores. Only on JDK 17 to 23: from JDK 24 the first use of Unsafe's memory
  // access methods prints a warning (JEP 498), so there native code re-points, as everywhere
  // before.
  private static final MethodHandle PUT_LONG;
  private static final MethodHandle PUT_INT;
  private static final MethodHandle GET_LONG;
  private static final MethodHandle PUT_REFERENCE;
  private static final long ADDRESS;
  private static final long CAPACITY;
  private static final long ATTACHMENT; // DirectByteBuffer.att

  /**
   * True if views can be re-pointed from Java ({@link #point}); false on JDK 24 and later, where it
   * is off on purpose (JEP 498's warning), where Unsafe cannot be used (e.g. with
   * --sun-misc-unsafe-memory-access=deny), or with -Dpinget.views.nativeRepoint=true.
   */
  static final boolean JAVA_REPOINTED;

  static {
    MethodHandle putLong = null;
    MethodHandle putInt = null;
    MethodHandle getLong = null;
    MethodHandle putReference = null;
    long address = -1;
    long capacity = -1;
    long attachment = -1;
    if (REPOINTED
        && Runtime.version().feature() < 24
        && !Boolean.getBoolean("pinget.views.nativeRepoint")) {
      try {
        Class<?> k = Class.forName("sun.misc.Unsafe");
        Field f = k.getDeclaredField("theUnsafe");
        f.setAccessible(true);
        Object unsafe = f.get(null);
        MethodHandle offset = unsafeMethod(unsafe, "objectFieldOffset", long.class, Field.class);
        address = (long) offset.invokeExact(Buffer.class.getDeclaredField("address"));
        capacity = (long) offset.invokeExact(Buffer.class.getDeclaredField("capacity"));
        attachment =
            (long)
                offset.invokeExact(
                    Class.forName("java.nio.DirectByteBuffer").getDeclaredField("att"));
        Class<?> o = Object.class;
        putLong = unsafeMethod(unsafe, "putLong", void.class, o, long.class, long.class);
        putInt = unsafeMethod(unsafe, "putInt", void.class, o, long.class, int.class);
        getLong = unsafeMethod(unsafe, "getLong", long.class, o, long.class);
        putReference = unsafeMethod(unsafe, "putObject", void.class, o, long.class, o);
      } catch (Throwable e) { // not this JDK's layout, or not reachable: native code re-points
        putLong = putInt = getLong = putReference = null;
      }
    }
    PUT_LONG = putLong;
    PUT_INT = putInt;
    GET_LONG = getLong;
    PUT_REFERENCE = putReference;
    ADDRESS = address;
    CAPACITY = capacity;
    ATTACHMENT = attachment;
    JAVA_REPOINTED = putReference != null;
  }

  private Views() {}

  /** Unsafe's method name(params) returning ret, bound to unsafe. */
  private static MethodHandle unsafeMethod(
      Object unsafe, String name, Class<?> ret, Class<?>... params)
      throws ReflectiveOperationException {
    return MethodHandles.lookup()
        .findVirtual(unsafe.getClass(), name, MethodType.methodType(ret, params))
        .bindTo(unsafe);
  }

  /**
   * Points a view at size bytes at address, position 0, limit = capacity = size. REQUIRES:
   * JAVA_REPOINTED; view made by {@link #attachedTo}; the memory stays valid until the view is
   * pointed elsewhere.
   */
  static void point(ByteBuffer view, long address, int size) {
    view.limit(0); // never a limit above the capacity, even between the two stores
    try {
      PUT_LONG.invokeExact((Object) view, ADDRESS, address);
      PUT_INT.invokeExact((Object) view, CAPACITY, size);
    } catch (Throwable e) {
      throw new AssertionError(e); // Unsafe's stores throw nothing
    }
    view.clear();
  }

  /**
   * The address of byte off of a direct buffer, for native code to read or write [off, off + len)
   * there, read in Java: a plain load of Buffer.address where JAVA_REPOINTED, else from its memory
   * segment ({@link BufferAddress}, Java 22+). 0, and native code finds it (GetDirectBufferAddress
   * and the capacity: four calls into the VM, about 10 ns each here) and checks the range or
   * refuses the buffer, for a heap buffer, where neither way is open (Java 17 to 21 without
   * JAVA_REPOINTED), or if [off, off + len) is not within the buffer's capacity: the caller passes
   * native code these same off and len, read from a buffer that another thread may move, and the
   * capacity does not change. REQUIRES: the caller keeps the buffer reachable, and alive, while the
   * address is used.
   */
  static long address(ByteBuffer buffer, int off, int len) {
    if (!buffer.isDirect() || off < 0 || len < 0 || (long) off + len > buffer.capacity()) {
      return 0;
    }
    if (GET_LONG == null) {
      return BufferAddress.of(buffer, off);
    }
    try {
      return (long) GET_LONG.invokeExact((Object) buffer, ADDRESS) + off;
    } catch (Throwable e) {
      throw new AssertionError(e); // Unsafe's loads throw nothing
    }
  }

  /** Points a view at nothing: capacity 0, so reading it throws. REQUIRES: JAVA_REPOINTED. */
  static void pointAtNothing(ByteBuffer view) {
    point(view, NOTHING, 0);
  }

  /**
   * A new view attached to owner, showing nothing; null when views are not re-pointed. Where
   * JAVA_REPOINTED, the attachment is a plain store (Unsafe's, with the GC's barrier); else a call
   * into native code, which makes a JNI field write (a cursor's first batch makes two views per
   * entry).
   */
  static ByteBuffer attachedTo(Object owner) {
    if (!REPOINTED) {
      return null;
    }
    ByteBuffer view = TEMPLATE.duplicate(); // shows nothing, as TEMPLATE does
    if (JAVA_REPOINTED) {
      try {
        PUT_REFERENCE.invokeExact((Object) view, ATTACHMENT, owner);
      } catch (Throwable e) {
        throw new AssertionError(e); // Unsafe's stores throw nothing
      }
    } else {
      NativePinned.attach(view, owner);
    }
    return view;
  }

  /**
   * Resets position, mark and limit (to the capacity) of a view that native code has just
   * re-pointed: it sets address and capacity, and lowers the limit only (jni_views.h), so this
   * reset is what raises it. Call after every native call that re-points views, on every path out
   * of it, before the view is handed out.
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
