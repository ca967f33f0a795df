package io.quarry.llm;

import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.Schema;
import com.google.genai.types.Tool;
import io.quarry.bus.ChartSpec;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;

/**
 * The tools the model may call, declared once with the {@code google-genai} SDK's types; OpenAI's Chat Completions gets
 * the same declarations as JSON Schema.
 */
final class Tools {

  static final String EXECUTE_SQL = "execute_sql";
  static final String LOAD_DATASET = "load_dataset";
  static final String RENDER_CHART = "render_chart";
  static final String RENDER_TABLE = "render_table";
  static final String DESCRIBE_COLUMNS = "describe_columns";

  private static final Tool TOOL = Tool.builder().functionDeclarations(List.of(
      declare(EXECUTE_SQL, "Execute one read-only DuckDB SQL SELECT statement against the conversation's datasets."
              + " Returns a result_id, the columns, the total row count and the first rows.",
          Map.of("query", string("The SQL SELECT statement")), List.of("query")),
      declare(LOAD_DATASET, "Load a public Parquet, CSV or JSON file from a URL into the conversation as a new table (for URLs the"
              + " user writes in a message). Returns the table name and its columns.",
          Map.of("url", string("The http(s) URL of the file")), List.of("url")),
      declare(RENDER_CHART, "Format query results as a chart, computed from every row of the result (rows sharing an"
              + " x are aggregated, a histogram bins them, a large scatter is sampled); the response says what it"
              + " shows. IMPORTANT: If recent query results are available in conversation history, use that data"
              + " directly by its result_id. Only generate new SQL if the user explicitly requests different data.",
          Map.of("result_id", string("The result_id of an earlier execute_sql result"),
              "chart_type", Schema.builder().type("STRING").enum_(ChartSpec.TYPES).description("The kind of chart").build(),
              "x", string("The column for the x axis (the category or slice for pie charts)"),
              "y", Schema.builder().type("ARRAY").items(string("A column")).description("One or more value columns").build(),
              "series", string("Optional column that splits the data into series (a heatmap's rows)"),
              "aggregate", Schema.builder().type("STRING").enum_(ChartSpec.AGGREGATES)
                  .description("How rows sharing an x (and series) combine; sum when omitted").build(),
              "title", string("Optional chart title"),
              "stacked", Schema.builder().type("BOOLEAN").description("Stack the series").build()),
          List.of("result_id", "chart_type", "x", "y")),
      declare(RENDER_TABLE, "Show query results as a table. IMPORTANT: If recent query results are available in"
              + " conversation history, use them directly by their result_id instead of running new SQL.",
          Map.of("result_id", string("The result_id of an earlier execute_sql result"),
              "title", string("Optional table title"),
              "columns", Schema.builder().type("ARRAY").items(string("A column")).description("Optional columns to show").build()),
          List.of("result_id")),
      declare(DESCRIBE_COLUMNS, "Profile a table's columns: its rows, and per column its nulls, min, max and distinct"
              + " values (an estimate). With column, also that column's most frequent values and a histogram. Use it"
              + " to learn what the data holds before writing SQL about values you have not seen.",
          Map.of("table", string("The table's name"),
              "column", string("Optional: a column whose most frequent values and histogram to add")),
          List.of("table")))).build();

  /** The {@code tools} array of a Gemini request body. */
  static final JsonArray GEMINI = new JsonArray().add(new JsonObject(TOOL.toJson()));

  /** The {@code tools} array of a Chat Completions request body: each declaration as a function, its schema lower-cased. */
  static final JsonArray OPENAI = openAi(GEMINI.getJsonObject(0).getJsonArray("functionDeclarations"));

  /** A tool's name as a metric may carry it: one of the five, or "unknown" (the model may name anything). */
  static String known(String name) {
    return List.of(EXECUTE_SQL, LOAD_DATASET, RENDER_CHART, RENDER_TABLE, DESCRIBE_COLUMNS).contains(name) ? name : "unknown";
  }

  private Tools() {
  }

  private static JsonArray openAi(JsonArray declarations) {
    JsonArray tools = new JsonArray();
    declarations.forEach(d -> {
      JsonObject declaration = (JsonObject) d;
      tools.add(new JsonObject().put("type", "function").put("function", new JsonObject()
          .put("name", declaration.getString("name")).put("description", declaration.getString("description"))
          .put("parameters", jsonSchema(declaration.getJsonObject("parameters")))));
    });
    return tools;
  }

  /** Gemini's OpenAPI subset names types in capitals ({@code STRING}); JSON Schema in lower case. */
  private static JsonObject jsonSchema(JsonObject schema) {
    JsonObject converted = new JsonObject();
    schema.forEach(entry -> converted.put(entry.getKey(), switch (entry.getKey()) {
      case "type" -> entry.getValue().toString().toLowerCase(java.util.Locale.ROOT);
      case "items" -> jsonSchema((JsonObject) entry.getValue());
      case "properties" -> {
        JsonObject properties = new JsonObject();
        ((JsonObject) entry.getValue()).forEach(p -> properties.put(p.getKey(), jsonSchema((JsonObject) p.getValue())));
        yield properties;
      }
      default -> entry.getValue();
    }));
    return converted;
  }

  private static FunctionDeclaration declare(String name, String description, Map<String, Schema> properties,
      List<String> required) {
    return FunctionDeclaration.builder().name(name).description(description)
        .parameters(Schema.builder().type("OBJECT").properties(properties).required(required).build()).build();
  }

  private static Schema string(String description) {
    return Schema.builder().type("STRING").description(description).build();
  }
}
