package io.quarry.worker;

import io.quarry.bus.Addresses;
import io.quarry.bus.Export;
import io.quarry.bus.PrivateFiles;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.UUID;

/**
 * The files exports are written to, in this worker's own directory (never a path a query can name: each export's
 * database may write its one file only), and read by whoever asked for them, a chunk at a time, from an address of
 * their own. A file goes when its reader says it is done, or when nobody has read from it for {@link #IDLE_MS}
 * (its reader went away).
 */
final class ExportFiles {

  static final long IDLE_MS = 120_000;

  private final Vertx vertx;
  private final Path dir;

  ExportFiles(Vertx vertx, Path dir) {
    this.vertx = vertx;
    this.dir = dir;
  }

  /** Empties the directory a previous run may have left files in. */
  Future<Void> open() {
    String path = dir.toString();
    return vertx.fileSystem().exists(path)
        .compose(exists -> exists ? vertx.fileSystem().deleteRecursive(path) : Future.succeededFuture())
        .compose(v -> vertx.fileSystem().mkdirs(path, PrivateFiles.DIRECTORY));
  }

  Path newFile(String format) {
    return dir.resolve(UUID.randomUUID() + "." + format);
  }

  /** Serves {@code file} from an address of its own, answered with its reply; {@code deleted} runs when it goes. */
  Future<String> serve(Path file, Runnable deleted) {
    String address = Addresses.workerExport(UUID.randomUUID().toString());
    Reader reader = new Reader(file, deleted);
    reader.consumer = vertx.eventBus().consumer(address, reader::handle);
    reader.idle();
    return reader.consumer.completion().map(address);
  }

  private final class Reader {
    final Path file;
    final Runnable deleted;
    MessageConsumer<JsonObject> consumer;
    long timer = -1;

    Reader(Path file, Runnable deleted) {
      this.file = file;
      this.deleted = deleted;
    }

    void handle(Message<JsonObject> msg) {
      if (msg.body().getBoolean(Export.DONE, false)) {
        // Answered once the file is gone: its user's next export may count on the room it leaves.
        close().onComplete(gone -> msg.reply(new JsonObject()));
        return;
      }
      idle();
      long offset = msg.body().getLong(Export.CHUNK, 0L);
      vertx.fileSystem().open(file.toString(), new OpenOptions().setRead(true).setWrite(false))
          .compose(f -> f.read(Buffer.buffer(), 0, offset, Export.CHUNK_BYTES).eventually(f::close))
          .onSuccess(msg::reply)
          .onFailure(e -> msg.fail(500, "The export's file could not be read: " + e.getMessage()));
    }

    void idle() {
      vertx.cancelTimer(timer);
      timer = vertx.setTimer(IDLE_MS, t -> close());
    }

    Future<Void> close() {
      vertx.cancelTimer(timer);
      consumer.unregister();
      return vertx.fileSystem().delete(file.toString()).otherwiseEmpty().onComplete(v -> deleted.run());
    }
  }
}
