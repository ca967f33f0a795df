package io.quarry.dataset;

import io.quarry.bus.Source;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What this node's workers learned of files' versions: the latest confirmation of each (its results' sources say when
 * a worker last asked the origin). Passed on with the next query over the file, so that another worker holding the
 * same version uses it unasked within its freshness window: one node's confirmation serves all its workers. Only the
 * {@link #MAX_FILES} most recently learned are kept. Lives on the dataset verticle's event loop.
 */
final class Confirmations {

  static final int MAX_FILES = 10_000;

  private final Map<String, Source> latest = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Source> eldest) {
      return size() > MAX_FILES;
    }
  };

  /** A result's sources: a later confirmation of a URL replaces the one known. */
  void learn(List<Source> sources) {
    for (Source source : sources) {
      if (source.confirmedAt() == null || source.url() == null) {
        continue;
      }
      Source known = latest.get(source.url());
      if (known == null || source.confirmedAt().compareTo(known.confirmedAt()) > 0) {
        latest.put(source.url(), source);
      }
    }
  }

  /** The versions a query's datasets record, each with the latest confirmation known of that very version. */
  List<Source> confirm(List<Source> recorded) {
    return recorded.stream().map(this::confirm).toList();
  }

  private Source confirm(Source recorded) {
    Source known = latest.get(recorded.url());
    if (known == null || !sameVersion(recorded, known)) {
      return recorded;
    }
    return new Source(recorded.table(), recorded.url(), recorded.etag(), recorded.lastModified(), recorded.size(),
        known.confirmedAt());
  }

  /** A dataset records the ETag, or the Last-Modified of a server that gives none, and the size. */
  private static boolean sameVersion(Source recorded, Source known) {
    boolean sameSize = recorded.size() == null || Objects.equals(recorded.size(), known.size());
    String version = recorded.etag();
    return sameSize && version != null && (version.equals(known.etag()) || version.equals(known.lastModified()));
  }
}
