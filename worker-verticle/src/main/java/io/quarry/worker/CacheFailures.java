package io.quarry.worker;

import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Sizes;
import io.quarry.bus.net.OutboundHttp;
import java.util.concurrent.TimeoutException;

/** What the cache's failures tell a user: the limit passed, or what went wrong between the worker and a file's server. */
final class CacheFailures {

  private final ParquetCache.Settings settings;

  CacheFailures(ParquetCache.Settings settings) {
    this.settings = settings;
  }

  QuarryException tooLarge(String url) {
    return new QuarryException(Failure.TOO_LARGE, "The dataset at " + url + " is larger than the "
        + Sizes.human(settings.maxFileSize()) + " limit");
  }

  /** {@code size} -1 when unknown. */
  QuarryException overQueryLimit(String url, long bytes, long size) {
    return new QuarryException(Failure.TOO_LARGE, "This query would read " + (size < 0 ? "more than "
        + Sizes.human(bytes) : Sizes.human(bytes) + " of " + Sizes.human(size)) + " from " + url
        + ", over the limit of " + Sizes.human(settings.maxQueryBytes()));
  }

  /** A file that changed under a fetch stays {@link RangeFetch.Changed}: its query runs again on the new version. */
  Throwable explain(String url, Throwable e) {
    if (e instanceof RangeFetch.Changed || e instanceof QuarryException) {
      return e;
    }
    if (e instanceof TimeoutException) {
      return QueryFailure.network(url, "The download did not finish within " + Sizes.seconds(settings.downloadTimeoutMs()));
    }
    String message = OutboundHttp.reason(e);
    if (diskFull(e)) {
      return new QuarryException(Failure.UNAVAILABLE, "The query worker's disk is full: it could not store the data"
          + " of " + url + ". Try again shortly.");
    }
    return QueryFailure.network(url, message);
  }

  static boolean diskFull(Throwable e) {
    return e != null && String.valueOf(e.getMessage()).contains("No space left on device");
  }
}
