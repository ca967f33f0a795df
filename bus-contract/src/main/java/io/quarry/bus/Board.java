package io.quarry.bus;

import io.vertx.core.json.JsonObject;

/**
 * A user's board: a grid of tiles ({@link Tile}), each a chart or a table pinned from a result with its own copy of
 * the result's rows, so that the board opens without running anything.
 *
 * @param tiles how many tiles it has
 */
public record Board(String id, String title, int tiles, String createdAt, String updatedAt) {

  public JsonObject toJson() {
    return new JsonObject().put(Keys.ID, id).put(Keys.TITLE, title).put("tiles", tiles)
        .put(Keys.CREATED_AT, createdAt).put("updated_at", updatedAt);
  }

  public static Board fromJson(JsonObject json) {
    return new Board(json.getString(Keys.ID), json.getString(Keys.TITLE), json.getInteger("tiles", 0),
        json.getString(Keys.CREATED_AT), json.getString("updated_at"));
  }
}
