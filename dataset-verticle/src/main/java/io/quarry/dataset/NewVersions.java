package io.quarry.dataset;

import static io.quarry.bus.ChatEvents.DATASET_LOADED;

import io.quarry.bus.ChatEvents;
import io.quarry.bus.Dataset;
import io.quarry.bus.StorageClient;
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
          .filter(d -> newer(d, source))
          .findFirst()
          .ifPresent(d -> storage.updateDataset(userId, d.ready(d.rowCount() == null ? 0 : d.rowCount(), d.schema(),
                  source.getLong("size"), source.getString("etag")))
              .onSuccess(updated -> ChatEvents.publish(bus, userId, ChatEvents.dataset(DATASET_LOADED, updated)))
              .onFailure(e -> log.debug("The new version of {} was not recorded: {}", d.name(), e.getMessage())));
    }
  }

  private static boolean newer(Dataset recorded, JsonObject source) {
    String etag = source.getString("etag");
    Long size = source.getLong("size");
    return etag != null && recorded.etag() != null ? !etag.equals(recorded.etag())
        : size != null && !Objects.equals(size, recorded.fileSize());
  }
}
