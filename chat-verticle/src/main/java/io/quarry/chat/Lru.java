package io.quarry.chat;

import java.util.LinkedHashMap;
import java.util.Map;

/** A map that keeps only its {@code max} most recently used entries, so state per user or address stays bounded. */
final class Lru<K, V> extends LinkedHashMap<K, V> {

  private final int max;

  Lru(int max) {
    super(16, 0.75f, true);
    this.max = max;
  }

  @Override
  protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
    return size() > max;
  }
}
