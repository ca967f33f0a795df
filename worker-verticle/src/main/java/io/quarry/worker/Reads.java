package io.quarry.worker;

import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a checked statement reads: the conversation's tables it names, and which of their columns it can touch
 * — every name any column reference or {@code USING} list spells (lower-case, as DuckDB matches them), or all
 * columns when it has a star ({@code *}, {@code t.*}, {@code COLUMNS(...)}), a whole-row reference, a
 * {@code NATURAL} join. A name is counted for every table that has such a column: reading
 * a column too many costs a fetch, missing one costs a second run (see {@link Placeholders}).
 */
record Reads(Set<String> tables, Set<String> names, boolean allColumns) {

  Reads {
    tables = Set.copyOf(tables);
    names = Set.copyOf(names);
  }

  /** Of a table's columns (in its order), those this statement can read. */
  BitSet columnsOf(List<String> columns) {
    BitSet wanted = new BitSet(columns.size());
    for (int i = 0; i < columns.size(); i++) {
      if (allColumns || names.contains(columns.get(i).toLowerCase(Locale.ROOT))) {
        wanted.set(i);
      }
    }
    return wanted;
  }
}
