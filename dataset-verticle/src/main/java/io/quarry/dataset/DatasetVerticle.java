package io.quarry.dataset;

import static io.quarry.bus.DatasetOps.*;

import io.quarry.bus.Bus;
import io.quarry.bus.ScheduleOps;
import io.quarry.bus.Timestamps;
import io.quarry.bus.StorageClient;
import io.quarry.bus.WorkerClient;
import io.quarry.bus.net.OutboundHttp;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.EventBus;
import java.util.List;

/**
 * Datasets by URL: the seed's validation pipeline, footer-only schemas, naming, limits, rename, refresh,
 * removal, and SQL over a conversation's datasets (run by a worker, stored by storage).
 */
public class DatasetVerticle extends VerticleBase {

  private static final int CONNECTIONS_PER_ORIGIN = 5;

  /** Null when deployed with a JSON config instead (the module's tests). */
  private final DatasetSettings given;
  private OutboundHttp http;
  private Scheduler scheduler;

  public DatasetVerticle() {
    this(null);
  }

  DatasetVerticle(DatasetSettings settings) {
    this.given = settings;
  }

  @Override
  public Future<?> start() {
    DatasetSettings settings = given != null ? given : DatasetSettings.from(config());
    EventBus bus = vertx.eventBus();
    StorageClient storage = new StorageClient(vertx);
    // The add asks two things of an origin at once; several adds share what it keeps open.
    http = new OutboundHttp(vertx, settings.policy(), (int) settings.pipeline().headTimeoutMs(), settings.originCaFile(),
        CONNECTIONS_PER_ORIGIN);
    WorkerClient worker = new WorkerClient(vertx);
    Pipeline pipeline = new Pipeline(vertx, http, settings.pipeline(), new EngineSchema(worker));
    DatasetCommands commands = new DatasetCommands(bus, storage, pipeline, settings.maxDatasets());
    NewVersions newVersions = new NewVersions(storage, bus, pipeline);
    QueryRunner queries = new QueryRunner(bus, storage, worker, newVersions, settings);
    VersionCheck versions = new VersionCheck(storage, pipeline, newVersions, settings.versionCheckIntervalMs());
    Bus ops = new Bus(vertx);
    scheduler = Scheduler.of(vertx, settings);
    scheduler.start();
    return Future.all(List.of(
        ops.serveLocal(ScheduleOps.TICK, tick -> scheduler.tick(Timestamps.parse(tick.now()))).completion(),
        ops.serve(ADD, DatasetMetrics.adds(commands::add)).completion(),
        ops.serve(REFRESH, commands::refresh).completion(),
        ops.serve(RENAME, commands::rename).completion(),
        ops.serve(REMOVE, commands::remove).completion(),
        ops.serve(VERSIONS_CHECK, versions::check).completion(),
        ops.serve(QUERY_RUN, DatasetMetrics.queries(queries::run)).completion(),
        ops.serve(CHART, new Charts(storage, queries)::chart).completion(),
        ops.serve(PROFILE, new Profiles(storage, queries, settings.profileMaxBytes(), settings.profilesCached())::profile)
            .completion()));
  }

  @Override
  public Future<?> stop() {
    return Future.join(http == null ? Future.succeededFuture() : http.close(),
        scheduler == null ? Future.succeededFuture() : scheduler.close());
  }
}
