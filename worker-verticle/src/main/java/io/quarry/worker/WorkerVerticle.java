package io.quarry.worker;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Deploys and says so; its behaviour arrives with its own issue. */
public class WorkerVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(WorkerVerticle.class);

  @Override
  public Future<?> start() {
    log.info("worker-verticle deployed: no behaviour yet");
    return Future.succeededFuture();
  }
}
