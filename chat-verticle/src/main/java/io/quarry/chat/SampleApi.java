package io.quarry.chat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.function.Supplier;

/**
 * {@code GET /api/samples}: small Parquet files this server serves itself under {@code /samples/}, made
 * from real public data of the vega-datasets package, so a newcomer gets an answer without a URL of their own.
 */
final class SampleApi {

  private record Sample(String file, String title, String description, String source) {
  }

  private static final List<Sample> SAMPLES = List.of(
      new Sample("cars.parquet", "Cars", "406 cars from 1970–1982: fuel economy, horsepower, weight, origin",
          "StatLib Auto MPG data, via vega-datasets"),
      new Sample("seattle-weather.parquet", "Seattle weather", "Daily weather in Seattle, 2012–2015: rain, temperatures, wind",
          "NOAA daily records, via vega-datasets"),
      new Sample("penguins.parquet", "Penguins", "344 penguins of three species: beak, flipper and body measurements",
          "Palmer Station LTER (palmerpenguins, CC0), via vega-datasets"));

  private final Supplier<String> baseUrl;

  SampleApi(Supplier<String> baseUrl) {
    this.baseUrl = baseUrl;
  }

  void list(RoutingContext ctx) {
    JsonArray samples = new JsonArray();
    SAMPLES.forEach(s -> samples.add(new JsonObject().put("title", s.title()).put("description", s.description())
        .put("source", s.source()).put("url", baseUrl.get() + s.file())));
    Replies.json(ctx, 200, new JsonObject().put("samples", samples));
  }
}
