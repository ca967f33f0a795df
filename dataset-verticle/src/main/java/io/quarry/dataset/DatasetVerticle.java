package io.quarry.dataset;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Deploys and says so; its behaviour arrives with its own issue. */
public class DatasetVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(DatasetVerticle.class);

  @Override
  public Future<?> start() {
    log.info("dataset-verticle deployed: no behaviour yet");
    return Future.succeededFuture();
  }
}
