package io.quarry.testing;

import static io.quarry.bus.Addresses.DATASET_ADD;
import static io.quarry.bus.Addresses.DATASET_QUERY_RUN;
import static io.quarry.testing.Failures.assertFails;
import static io.quarry.testing.Failures.failure;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Dataset;
import io.quarry.bus.DatasetClient;
import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryResult;
import io.quarry.bus.QueryTimeouts;
import io.quarry.bus.RowsJson;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
class FakeDatasetsTest {

  static final String USER = "alice";
  static final String TALK = "conversation-1";
  static final String URL = "https://example.com/cities.parquet";
  static final String SQL = "SELECT city FROM table1";
  static final JsonArray SCHEMA = new JsonArray().add(new JsonObject().put("name", "city").put("type", "VARCHAR"));

  FakeDatasets fake;
  DatasetClient datasets;

  @BeforeEach
  void start(Vertx vertx) {
    fake = FakeDatasets.start(vertx).await();
    datasets = new DatasetClient(vertx, new QueryTimeouts(1_000));
  }

  @Test
  @DisplayName("a scripted query is answered with its rows, as stored for the asking conversation under the id it was given")
  void answer() {
    JsonArray rows = new JsonArray().add(new JsonArray().add("London"));
    fake.answer(SQL, new QueryResult("result-1", null, null, new JsonArray().add(new JsonObject()
        .put("name", "city").put("type", "VARCHAR")), RowsJson.of(rows), 1, false, 4, null, null)).await();

    QueryResult result = datasets.query(USER, TALK, SQL).await();

    assertThat(result.id()).isEqualTo("result-1");
    assertThat(result.conversationId()).isEqualTo(TALK);
    assertThat(result.sql()).isEqualTo(SQL);
    assertThat(result.rowValues()).isEqualTo(rows);
    assertThat(result.createdAt()).isNotNull();
  }

  @Test
  @DisplayName("a scripted SQL error arrives with its code, friendly message and DuckDB's text as details")
  void sqlError() {
    String duckdb = "Binder Error: Referenced column \"town\" not found in FROM clause!";
    fake.fail("SELECT town FROM table1", new QuarryException(Failure.SQL,
        "Column 'town' does not exist. Available columns: table1(city)", duckdb)).await();

    Throwable e = failure(datasets.query(USER, TALK, "SELECT town FROM table1"));

    assertThat(Failure.classify(e)).isEqualTo(Failure.SQL);
    assertThat(Failure.classify(e).errorType()).isEqualTo("sql");
    assertThat(Failure.messageOf(e)).isEqualTo("Column 'town' does not exist. Available columns: table1(city)");
    assertThat(Failure.detailsOf(e)).isEqualTo(duckdb);
  }

  @Test
  @DisplayName("SQL nobody scripted fails saying so, and every query asked is recorded in order")
  void unscripted() {
    assertFails(datasets.query(USER, TALK, "SELECT 1"), Failure.INTERNAL,
        "FakeDatasets has no answer scripted for SQL: SELECT 1");
    failure(datasets.query(USER, TALK, "SELECT 2"));

    assertThat(fake.queries().await()).containsExactly("SELECT 1", "SELECT 2");
    assertThat(fake.calls(DATASET_QUERY_RUN).await()).isEqualTo(2);
  }

  @Test
  @DisplayName("adding a scripted URL answers a ready dataset of the conversation with its schema")
  void load() {
    fake.load(URL, "table1", 3, SCHEMA).await();

    Dataset added = datasets.add(USER, TALK, URL).await();

    assertThat(added.status()).isEqualTo(Dataset.READY);
    assertThat(added.conversationId()).isEqualTo(TALK);
    assertThat(added.name()).isEqualTo("table1");
    assertThat(added.rowCount()).isEqualTo(3);
    assertThat(added.schema()).isEqualTo(SCHEMA);
    assertThat(fake.requests().await()).extracting(BusFake.Request::address).containsExactly(DATASET_ADD);
  }

  @Test
  @DisplayName("adding a refused URL fails with the pipeline's message and details")
  void refuse() {
    fake.refuse(URL, new QuarryException(Failure.BAD_REQUEST, "Could not access URL", "The server answered HTTP 404"))
        .await();

    Throwable e = failure(datasets.add(USER, TALK, URL));

    assertThat(Failure.classify(e)).isEqualTo(Failure.BAD_REQUEST);
    assertThat(Failure.messageOf(e)).isEqualTo("Could not access URL");
    assertThat(Failure.detailsOf(e)).isEqualTo("The server answered HTTP 404");
  }

  @Test
  @DisplayName("an added dataset can be renamed, refreshed and removed; one of another conversation is not found")
  void renameRefreshRemove() {
    fake.load(URL, "table1", 3, SCHEMA).await();
    Dataset added = datasets.add(USER, TALK, URL).await();

    assertThat(datasets.rename(USER, TALK, added.id(), "cities").await().name()).isEqualTo("cities");
    assertThat(datasets.refresh(USER, TALK, added.id()).await().name()).isEqualTo("cities");
    assertFails(datasets.remove(USER, "conversation-2", added.id()), Failure.NOT_FOUND, "Dataset not found");
    assertThat(datasets.remove(USER, TALK, added.id()).await().id()).isEqualTo(added.id());
    assertFails(datasets.refresh(USER, TALK, added.id()), Failure.NOT_FOUND, "Dataset not found");
  }
}
