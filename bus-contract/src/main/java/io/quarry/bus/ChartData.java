package io.quarry.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * What a chart draws, computed on a worker from every row of its result: rows aggregated by x (and series), a
 * histogram's bins, or a scatter's points (all of them, or a uniform sample). {@code shows} says which, in words the
 * chart carries under its title and the model reads in render_chart's response.
 *
 * @param columns {@code [{name, type}]} of the rows drawn
 * @param rows    row arrays in column order
 */
public record ChartData(JsonObject spec, JsonArray columns, JsonArray rows, String shows) {

  public JsonObject toJson() {
    return new JsonObject().put("spec", spec).put("columns", columns).put("rows", rows).put("shows", shows);
  }

  public static ChartData fromJson(JsonObject json) {
    return new ChartData(json.getJsonObject("spec"), json.getJsonArray("columns"), json.getJsonArray("rows"),
        json.getString("shows"));
  }
}
