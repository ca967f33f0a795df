package io.quarry.dataset;

import io.quarry.bus.Dataset;
import io.quarry.bus.DatasetOps.ProfileRequest;
import io.quarry.bus.Failure;
import io.quarry.bus.Profile;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryResult;
import io.quarry.bus.Sizes;
import io.quarry.bus.StorageClient;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Datasets' column profiles ({@link Profile}), computed once per version of a file (its URL, ETag and size) and kept,
 * the newest {@code cached} of them, with each column's most frequent values and histogram as they are asked for: a
 * second look costs no query. Only on the event loop of the dataset verticle, so the maps need no lock.
 */
final class Profiles {

  static final String NOT_READY = "The dataset has not loaded: its profile comes once it is ready";

  private final StorageClient storage;
  private final QueryRunner queries;
  private final ProfileScan scan;
  private final long maxBytes;
  private final Map<String, Running<ProfileScan.Computed>> profiles;
  private final Map<String, Running<Profile.Top>> tops;

  /** A computation and the conversation whose queries make it. */
  private record Running<V>(String conversationId, Future<V> future) {
  }

  Profiles(StorageClient storage, QueryRunner queries, long maxBytes, int cached) {
    this.storage = storage;
    this.queries = queries;
    this.scan = new ProfileScan(queries, maxBytes);
    this.maxBytes = maxBytes;
    this.profiles = lru(cached);
    this.tops = lru(cached * 4);
  }

  Future<Profile> profile(ProfileRequest r) {
    return storage.dataset(r.userId(), r.conversationId(), r.datasetId()).compose(dataset -> {
      if (!Dataset.READY.equals(dataset.status())) {
        return Future.failedFuture(new QuarryException(Failure.CONFLICT, NOT_READY));
      }
      Future<ProfileScan.Computed> computed = computed(r, dataset);
      return r.column() == null ? computed.map(ProfileScan.Computed::profile)
          : computed.compose(c -> top(r, dataset, c).map(top -> c.profile().withTop(top)));
    });
  }

  /** A profile computing is shared by whoever asks meanwhile; one that failed, or read another version, is not kept. */
  private Future<ProfileScan.Computed> computed(ProfileRequest r, Dataset dataset) {
    return shared(profiles, key(dataset), r, () -> scan.compute(r.userId(), r.conversationId(), dataset, r.stopKey()),
        ProfileScan.Computed::current);
  }

  /**
   * What {@code work} makes for {@code key}, shared with whoever asks while it runs and kept while {@code keep} holds.
   * It runs as one conversation's queries, so it can fail for that conversation's reasons alone (deleted meanwhile, its
   * dataset removed): a request of another conversation that joined it then runs its own, once.
   */
  private static <V> Future<V> shared(Map<String, Running<V>> running, String key, ProfileRequest r,
      Supplier<Future<V>> work, Predicate<V> keep) {
    Running<V> known = running.get(key);
    if (known == null) {
      return start(running, key, r, work, keep);
    }
    return known.conversationId().equals(r.conversationId()) ? known.future()
        : known.future().recover(e -> start(running, key, r, work, keep));
  }

  private static <V> Future<V> start(Map<String, Running<V>> running, String key, ProfileRequest r,
      Supplier<Future<V>> work, Predicate<V> keep) {
    Running<V> started = new Running<>(r.conversationId(), work.get());
    running.put(key, started);
    return started.future().onComplete(done -> {
      if (done.failed() || !keep.test(done.result())) {
        running.remove(key, started);
      }
    });
  }

  private Future<Profile.Top> top(ProfileRequest r, Dataset dataset, ProfileScan.Computed computed) {
    Profile.Column column = computed.profile().columns().stream().filter(c -> c.name().equals(r.column())).findFirst()
        .orElse(null);
    if (column == null) {
      return Future.failedFuture(new QuarryException(Failure.NOT_FOUND, "No column '" + r.column() + "' in "
          + dataset.name()));
    }
    long bytes = computed.bytes().getOrDefault(column.name(), 0L);
    if (bytes > maxBytes) {
      return Future.failedFuture(new QuarryException(Failure.TOO_LARGE, "The most frequent values of " + column.name()
          + " would read " + Sizes.human(bytes) + ", past the profile's budget of " + Sizes.human(maxBytes)
          + " (dataset.profileMaxBytes): ask for them in SQL instead"));
    }
    return shared(tops, key(dataset) + "\u0000" + column.name(), r, () -> frequent(r, dataset, column), top -> true);
  }

  private Future<Profile.Top> frequent(ProfileRequest r, Dataset dataset, Profile.Column column) {
    String table = dataset.name();
    Future<List<Profile.Bin>> bins = ProfileSql.binnable(column.type())
        ? queries.unstored(r.userId(), r.conversationId(), ProfileSql.histogram(table, column.name()), r.stopKey())
            .map(result -> rows(result).stream().map(row -> new Profile.Bin(row.getValue(0), row.getLong(1))).toList())
        : Future.succeededFuture(List.of());
    return queries.unstored(r.userId(), r.conversationId(), ProfileSql.frequent(table, column.name()), r.stopKey())
        .compose(values -> bins.map(histogram -> new Profile.Top(column.name(), rows(values).stream()
            .map(row -> new Profile.Frequent(row.getValue(0), row.getLong(1))).toList(), histogram)));
  }

  private static List<JsonArray> rows(QueryResult result) {
    return result.rowValues().stream().map(JsonArray.class::cast).toList();
  }

  /** A version of a file: what it is, whatever its table is called now. */
  private static String key(Dataset dataset) {
    return dataset.url() + "\u0000" + dataset.etag() + "\u0000" + dataset.fileSize();
  }

  private static <V> Map<String, V> lru(int size) {
    return new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
        return size() > size;
      }
    };
  }
}
