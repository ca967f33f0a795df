package io.quarry.llm;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Deploys and says so; its behaviour arrives with its own issue. */
public class LlmVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(LlmVerticle.class);

  @Override
  public Future<?> start() {
    log.info("llm-verticle deployed: no behaviour yet");
    return Future.succeededFuture();
  }
}
