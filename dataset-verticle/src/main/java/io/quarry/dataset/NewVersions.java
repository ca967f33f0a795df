package io.quarry.dataset;

import static io.quarry.bus.ChatEvents.DATASET_LOADED;

import io.quarry.bus.ChatEvents;
import io.quarry.bus.Dataset;
import io.quarry.bus.StorageClient;
import io.vertx.core.Future;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A query's worker revalidates every file it reads, so its result's sources say which version of a dataset is
 * current. When that is not the version its dataset records (the file changed since it was added or refreshed), the
 * dataset takes it, and its browsers hear so: the results that read the earlier version can then say the data has
 * changed since them.
 */
final class NewVersions {

  private static final Logger log = LoggerFactory.getLogger(NewVersions.class);

  private final StorageClient storage;
  private final EventBus bus;

  NewVersions(StorageClient storage, EventBus bus) {
    this.storage = storage;
    this.bus = bus;
  }

  void note(String userId, List<Dataset> datasets, JsonArray sources) {
    for (Object item : sources) {
      JsonObject source = (JsonObject) item;
      datasets.stream()
          .filter(d -> d.name().equals(source.getString("table")) && d.url().equals(source.getString("url")))
          .filter(d -> newer(d, source.getString("etag"), source.getLong("size")))
          .findFirst()
          .ifPresent(d -> take(userId, d, source.getLong("size"), source.getString("etag")));
    }
  }

  /** Records {@code size} and {@code etag} as the dataset's version and tells its browsers. */
  Future<Dataset> take(String userId, Dataset d, Long size, String etag) {
    long known = size != null && size >= 0 ? size : d.fileSize() == null ? -1 : d.fileSize();
    return storage.updateDataset(userId, d.ready(d.rowCount() == null ? 0 : d.rowCount(), d.schema(), known,
            etag == null ? d.etag() : etag))
        .onSuccess(updated -> ChatEvents.publish(bus, userId, ChatEvents.dataset(DATASET_LOADED, updated)))
        .onFailure(e -> log.debug("The new version of {} was not recorded: {}", d.name(), e.getMessage()));
  }

  /** Whether a version seen now is another than the recorded one: by ETag when both have one, else by size. */
  static boolean newer(Dataset recorded, String etag, Long size) {
    return etag != null && recorded.etag() != null ? !etag.equals(recorded.etag())
        : size != null && size >= 0 && !Objects.equals(size, recorded.fileSize());
  }
}
