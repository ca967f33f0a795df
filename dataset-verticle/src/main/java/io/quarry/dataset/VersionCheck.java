package io.quarry.dataset;

import io.quarry.bus.Dataset;
import io.quarry.bus.DatasetOps.VersionsChecked;
import io.quarry.bus.Scopes.ConversationRef;
import io.quarry.bus.StorageClient;
import io.quarry.bus.net.OutboundHttp;
import io.vertx.core.Future;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * When a conversation is opened, each of its ready datasets' servers is asked (HEAD) whether the file changed since it
 * was recorded; a changed one takes the new version ({@link NewVersions}), so that the results that read the earlier
 * one say the data has changed since them, before any new query reads it. However often a conversation is opened, a
 * dataset's server is asked at most once per interval: a page reloaded a thousand times sends no thousand requests.
 */
final class VersionCheck {

  /** Datasets whose last check is remembered; the oldest is forgotten past it (it is then asked again). */
  private static final int REMEMBERED = 10_000;

  private final StorageClient storage;
  private final Pipeline pipeline;
  private final NewVersions versions;
  private final long intervalMs;
  private final Map<String, Long> askedAt = new LinkedHashMap<>() {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
      return size() > REMEMBERED;
    }
  };

  VersionCheck(StorageClient storage, Pipeline pipeline, NewVersions versions, long intervalMs) {
    this.storage = storage;
    this.pipeline = pipeline;
    this.versions = versions;
    this.intervalMs = intervalMs;
  }

  /** How many servers were asked, and how many had changed. */
  Future<VersionsChecked> check(ConversationRef ref) {
    String userId = ref.userId();
    String conversationId = ref.conversationId();
    return storage.datasets(userId, conversationId).compose(datasets -> {
      List<Future<Boolean>> checks = datasets.stream()
          .filter(d -> Dataset.READY.equals(d.status()) && due(d.id()))
          .map(d -> changed(userId, d))
          .toList();
      return Future.join(checks).otherwiseEmpty().map(v -> new VersionsChecked(checks.size(),
          checks.stream().filter(f -> f.succeeded() && f.result()).count()));
    });
  }

  private boolean due(String datasetId) {
    long now = System.currentTimeMillis();
    Long last = askedAt.get(datasetId);
    if (last != null && now - last < intervalMs) {
      return false;
    }
    askedAt.remove(datasetId);
    askedAt.put(datasetId, now);
    return true;
  }

  /** A server that cannot be reached now says nothing of the file: the dataset stays as it is. */
  private Future<Boolean> changed(String userId, Dataset d) {
    return pipeline.version(OutboundHttp.parse(d.url()).orElseThrow())
        .compose(now -> versions.seen(userId, d, now.etag(), now.size()));
  }
}
