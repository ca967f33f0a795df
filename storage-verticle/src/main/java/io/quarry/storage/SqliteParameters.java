package io.quarry.storage;

import io.vertx.core.json.JsonArray;
import io.vertx.jdbcclient.spi.JDBCColumnDescriptorProvider;
import io.vertx.jdbcclient.spi.JDBCEncoder;
import io.vertx.sqlclient.Tuple;

/**
 * How the JDBC client hands a statement's parameters to SQLite (the only database Quarry reaches through it, found by
 * its service file): as they are. The client's own encoder first asks the driver for each parameter's type, which the
 * SQLite driver cannot tell, and so threw and caught two exceptions per parameter of every statement. Quarry's
 * parameters are strings, numbers, booleans and nulls (times as ISO text), which the driver takes as they are.
 * Positions are the driver's, from 1.
 */
public final class SqliteParameters implements JDBCEncoder {

  @Override
  public Object encode(JsonArray input, int pos, JDBCColumnDescriptorProvider provider) {
    return input.getValue(pos - 1);
  }

  @Override
  public Object encode(Tuple input, int pos, JDBCColumnDescriptorProvider provider) {
    return input.getValue(pos - 1);
  }
}
