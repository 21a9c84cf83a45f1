// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;

/**
 * The read methods that {@link Store} and {@code io.pinget.rocksjava.RocksJavaReader} share, so
 * that one set of checks ({@link Ways}) runs over both.
 */
public interface Reads {
  byte[] stringCopy(ReadOptions o, byte[] key, int off, int len);

  byte[] stringCopy(ReadOptions o, ByteBuffer key);

  byte[] pinnableCopy(ReadOptions o, byte[] key, int off, int len);

  byte[] pinnableCopy(ReadOptions o, ByteBuffer key);

  int bufferCopy(ReadOptions o, byte[] key, int keyOff, int keyLen, byte[] dst, int off, int len);

  int bufferCopy(ReadOptions o, ByteBuffer key, byte[] dst, int off, int len);

  int directCopy(ReadOptions o, byte[] key, int keyOff, int keyLen, ByteBuffer dst);

  int directCopy(ReadOptions o, ByteBuffer key, ByteBuffer dst);

  PinnedValue pinnedValue(ReadOptions o, byte[] key, int off, int len);

  PinnedValue pinnedValue(ReadOptions o, ByteBuffer key);

  void multiGetBufferCopy(ReadOptions o, byte[][] keys, byte[][] dsts, int[] sizes);

  void multiGetDirectCopy(ReadOptions o, byte[][] keys, ByteBuffer[] dsts, int[] sizes);

  /** Each call goes to target's public method of the same name and parameter types. */
  static Reads over(Object target) {
    return (Reads)
        Proxy.newProxyInstance(
            Reads.class.getClassLoader(),
            new Class<?>[] {Reads.class},
            (proxy, method, args) -> {
              Method m = target.getClass().getMethod(method.getName(), method.getParameterTypes());
              try {
                return m.invoke(target, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }
}
