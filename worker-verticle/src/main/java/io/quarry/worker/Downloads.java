package io.quarry.worker;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Bytes moving into the cache now, per URL, for the progress a waiting query reports ({@link FetchProgress}). Lives on
 * the worker verticle's event loop.
 */
final class Downloads {

  /** Bytes moving for a URL now: received so far, and expected (-1 when its server did not say). */
  static final class Download {
    long expected;
    long received;
    private int transfers;

    void received(long bytes) {
      received += bytes;
      CacheMetrics.fetched(bytes);
    }
  }

  private final Map<String, Download> downloading = new HashMap<>();

  /** A transfer for {@code url} begins; {@code expected} -1 when unknown. Pair with {@link #finished}. */
  Download started(String url, long expected) {
    Download download = downloading.computeIfAbsent(url, u -> new Download());
    download.transfers++;
    download.expected = expected < 0 || download.expected < 0 ? -1 : download.expected + expected;
    return download;
  }

  void finished(String url, Download download) {
    if (--download.transfers == 0) {
      downloading.remove(url, download);
    }
  }

  /** Of these tables, those whose file is downloading now, with how far each has come. */
  Map<String, Download> of(Map<String, String> tables) {
    Map<String, Download> now = new LinkedHashMap<>();
    tables.forEach((name, url) -> {
      Download download = downloading.get(url);
      if (download != null) {
        now.put(name, download);
      }
    });
    return now;
  }
}
