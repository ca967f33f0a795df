package io.quarry.llm;

import io.quarry.bus.DatasetClient;
import io.quarry.bus.StorageClient;
import io.vertx.core.Vertx;

/**
 * What every turn of an llm verticle works with, built once when it starts and shared by its turns (all on its event
 * loop).
 *
 * @param model null when the configured provider cannot be reached (no key): then no turn starts
 */
record TurnContext(Vertx vertx, Model model, StorageClient storage, DatasetClient datasets,
    LlmSettings settings) {
}
