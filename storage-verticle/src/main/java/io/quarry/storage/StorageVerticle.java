package io.quarry.storage;

import static io.quarry.bus.StorageOps.*;

import io.quarry.bus.BoardOps;
import io.quarry.bus.Bus;
import io.quarry.bus.PrivateFiles;
import io.quarry.bus.ScheduleOps;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.shareddata.Lock;
import io.vertx.jdbcclient.JDBCPool;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.SslMode;
import io.vertx.sqlclient.PoolOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * Storage: opens the database (a SQLite file, {@code quarry.db} in {@code dataDir}, or PostgreSQL), migrates it,
 * then serves every storage address. With SQLite it is the database's only owner on its cluster.
 */
public class StorageVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(StorageVerticle.class);
  public static final String DATABASE_FILE = "quarry.db";

  /** Held for the verticle's life: on a cluster, a second storage node cannot get it. */
  static final String SINGLETON_LOCK = "quarry.storage.singleton";

  private Db db;
  private Lock singleton;
  /** Null when deployed with a JSON config instead (the module's tests). */
  private final StorageSettings given;
  private StorageSettings settings;

  public StorageVerticle() {
    this(null);
  }

  StorageVerticle(StorageSettings settings) {
    this.given = settings;
  }

  @Override
  public Future<?> start() {
    settings = given != null ? given : StorageSettings.from(config());
    String where = settings.dialect() == Dialect.SQLITE ? settings.database().toString()
        : settings.postgres().toString();
    return open()
        .compose(Migrations::apply)
        .recover(e -> Future.failedFuture(new IllegalStateException(
            "Cannot open the database at " + where + ": " + e.getMessage(), e)))
        .compose(version -> onlyWriter() ? claimSingleton().compose(v -> Interrupted.settle(db))
            : Future.succeededFuture())
        .compose(v -> purgeSessions(new UserStore(db)))
        .compose(v -> bind(new Bus(vertx)))
        .onSuccess(v -> log.info("Storage ready: {}", where));
  }

  private Future<Db> open() {
    Future<Void> ready = settings.dialect() == Dialect.SQLITE
        ? vertx.executeBlocking(() -> {
          SqliteLibrary.loadAndForget();
          return ownerOnly(settings.database());
        }, false) : Future.succeededFuture();
    return ready.map(v -> db = connect(vertx, settings));
  }

  /** A pool on the configured database (tests open one to build an older version's database). */
  static Db connect(Vertx vertx, StorageSettings settings) {
    PoolOptions pool = new PoolOptions().setMaxSize(settings.poolSize());
    if (settings.dialect() == Dialect.POSTGRES) {
      StorageSettings.Postgres pg = settings.postgres();
      PgConnectOptions options = new PgConnectOptions().setHost(pg.host()).setPort(pg.port())
          .setDatabase(pg.database()).setUser(pg.user()).setPassword(pg.password())
          .setSslMode(pg.ssl() ? SslMode.VERIFY_FULL : SslMode.DISABLE);
      return new Db(PgBuilder.pool().with(pool).connectingTo(options).using(vertx).build(), Dialect.POSTGRES);
    }
    return new Db(JDBCPool.pool(vertx, dataSource(settings.database()), pool), Dialect.SQLITE);
  }

  /**
   * The database and what SQLite keeps beside it are this account's alone: the data directory 0700 (refused if another
   * account could write it), the file 0600 before SQLite first opens it (SQLite gives {@code -wal} and {@code -shm}
   * the database file's mode), and what an older version left readable made 0600.
   */
  private static Void ownerOnly(Path file) throws IOException {
    PrivateFiles.dataDir(file.getParent());
    if (!Files.exists(file)) {
      PrivateFiles.newFile(file);
    }
    for (String suffix : List.of("", "-wal", "-shm", "-journal")) {
      PrivateFiles.file(file.resolveSibling(file.getFileName() + suffix));
    }
    return null;
  }

  /** Now, and every {@code sessionPurgeMs} (an hour) after. */
  private Future<Void> purgeSessions(UserStore users) {
    vertx.setPeriodic(settings.sessionPurgeMs(), t -> users.purgeExpiredSessions()
        .onFailure(e -> log.warn("Could not purge expired sessions: {}", e.getMessage())));
    return users.purgeExpiredSessions()
        .onSuccess(purged -> log.debug("Purged {} expired sessions", purged))
        .mapEmpty();
  }

  /**
   * With SQLite this node is its database's one owner on the cluster (it holds a cluster-wide lock) and what
   * assumes it sees every write may keep state. With PostgreSQL any number of storage nodes serve at once, and
   * what a dead server left half done is not settled at start (another node may be running it).
   */
  private boolean onlyWriter() {
    return settings.dialect() == Dialect.SQLITE;
  }

  private Future<Void> claimSingleton() {
    return vertx.sharedData().getLockWithTimeout(SINGLETON_LOCK, settings.singletonWaitMs())
        .map(lock -> {
          singleton = lock;
          return (Void) null;
        })
        .recover(e -> Future.failedFuture(new IllegalStateException("Another node of this cluster already has the"
            + " storage role: exactly one node may own the database")));
  }

  private Future<?> bind(Bus bus) {
    UserStore users = new UserStore(db);
    DatasetLists datasetLists = new DatasetLists(onlyWriter());
    Quotas quotas = new Quotas(db, settings, onlyWriter());
    ConversationStore conversations = new ConversationStore(db, datasetLists, quotas);
    MessageStore messages = new MessageStore(db, quotas);
    DatasetStore datasets = new DatasetStore(db, datasetLists, quotas);
    ResultStore results = new ResultStore(db, quotas);
    RunStore runs = new RunStore(db, results);
    UsageStore usage = new UsageStore(db);
    ApiTokens tokens = new ApiTokens(db, users);
    ShareStore shares = new ShareStore(db, settings.maxSharesPerUser());
    BoardStore boards = new BoardStore(db);
    ScheduleStore schedules = new ScheduleStore(db);
    ScheduleRuns scheduleRuns = new ScheduleRuns(db, schedules);
    List<MessageConsumer<Object>> consumers = List.of(
        bus.serve(USER_LOCAL, users::local),
        bus.serve(USER_CREATE, users::create),
        bus.serve(USER_GET, users::get),
        bus.serve(USER_CREDENTIALS, users::credentials),
        bus.serve(SESSION_CREATE, users::createSession),
        bus.serve(SESSION_FIND, users::findSession),
        bus.serve(SESSION_DELETE, users::deleteSession),
        bus.serve(INVITE_CREATE, users::createInvite),
        bus.serve(INVITE_CHECK, users::checkInvite),
        bus.serve(CONVERSATION_CREATE, conversations::create),
        bus.serve(CONVERSATION_LIST, conversations::list),
        bus.serve(CONVERSATION_SEARCH, conversations::search),
        bus.serve(CONVERSATION_GET, conversations::get),
        bus.serve(CONVERSATION_RENAME, conversations::rename),
        bus.serve(CONVERSATION_DELETE, conversations::delete),
        bus.serve(MESSAGE_APPEND, messages::append),
        bus.serve(MESSAGE_LIST, messages::list),
        bus.serve(MESSAGE_INTERRUPT, messages::interrupt),
        bus.serve(MESSAGE_REOPEN, messages::reopen),
        bus.serve(DATASET_CLAIM, datasets::claim),
        bus.serve(DATASET_LIST, datasets::list),
        bus.serve(DATASET_GET, datasets::get),
        bus.serve(DATASET_UPDATE, datasets::update),
        bus.serve(DATASET_RENAME, datasets::rename),
        bus.serve(DATASET_DELETE, datasets::delete),
        bus.serve(RESULT_SAVE, results::save),
        bus.serve(RESULT_GET, results::get),
        bus.serve(RUN_SAVE, runs::save),
        bus.serve(RUN_LIST, runs::list),
        bus.serve(USAGE_RECORD, usage::record),
        bus.serve(USAGE_WINDOW, usage::window),
        bus.serve(TOKEN_CREATE, tokens::create),
        bus.serve(TOKEN_FIND, tokens::find),
        bus.serve(TOKEN_REVOKE, tokens::revoke),
        bus.serve(TOKEN_LIST, tokens::list),
        bus.serve(SHARE_CREATE, shares::create),
        bus.serve(SHARE_LIST, shares::list),
        bus.serve(SHARE_REVOKE, shares::revoke),
        bus.serve(SHARE_OPEN, shares::open),
        bus.serve(BoardOps.STORE_CREATE, boards::create),
        bus.serve(BoardOps.STORE_LIST, boards::list),
        bus.serve(BoardOps.STORE_GET, boards::get),
        bus.serve(BoardOps.STORE_RENAME, boards::rename),
        bus.serve(BoardOps.STORE_DELETE, boards::delete),
        bus.serve(BoardOps.STORE_PIN, boards::pin),
        bus.serve(BoardOps.STORE_FILL, boards::fill),
        bus.serve(BoardOps.STORE_REMOVE, boards::remove),
        bus.serve(BoardOps.STORE_REORDER, boards::reorder),
        bus.serve(ScheduleOps.CREATE, schedules::create),
        bus.serve(ScheduleOps.LIST, schedules::list),
        bus.serve(ScheduleOps.GET, schedules::get),
        bus.serve(ScheduleOps.UPDATE, schedules::update),
        bus.serve(ScheduleOps.DELETE, schedules::delete),
        bus.serve(ScheduleOps.CLAIM, schedules::claim),
        bus.serve(ScheduleOps.RENEW, schedules::renew),
        bus.serve(ScheduleOps.RELEASE, schedules::release),
        bus.serve(ScheduleOps.RUNS, scheduleRuns::list),
        bus.serve(ScheduleOps.RUN_START, scheduleRuns::start),
        bus.serve(ScheduleOps.RUN_FINISH, scheduleRuns::finish),
        bus.serve(ScheduleOps.RUN_DELIVERED, scheduleRuns::delivered),
        bus.serve(ScheduleOps.RETRIES_CLAIM, scheduleRuns::claimRetries),
        bus.serve(PING, none -> db.run("SELECT 1").mapEmpty()));
    return Future.all(consumers.stream().map(MessageConsumer::completion).toList());
  }

  /** WAL so readers never wait for the writer; a busy timeout so writers queue rather than fail. */
  private static SQLiteDataSource dataSource(Path file) {
    SQLiteConfig config = new SQLiteConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    config.enforceForeignKeys(true);
    config.setBusyTimeout(10_000);
    config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
    SQLiteDataSource source = new SQLiteDataSource(config);
    source.setUrl("jdbc:sqlite:" + file);
    return source;
  }

  @Override
  public Future<?> stop() {
    if (singleton != null) {
      singleton.release();
    }
    return db == null ? Future.succeededFuture() : db.close();
  }
}
