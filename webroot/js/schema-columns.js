// The schema modal's columns: a filter by name or type (a file may have hundreds of columns), and the file's size in
// human units.
import { elements } from './elements.js';

const $ = elements(['schema-columns', 'schema-filter', 'schema-shown']);
const UNITS = ['KB', 'MB', 'GB', 'TB'];

/** 10,751,488 bytes → "10.3 MB" (units of 1,024), in the reader's locale. */
export function humanSize(bytes) {
  let value = Number(bytes);
  if (value < 1024) return `${value.toLocaleString()} bytes`;
  let unit = -1;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toLocaleString(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 })} ${UNITS[unit]}`;
}

export class SchemaColumns {
  /** @param profile what the profile adds to each column's row (schema-profile.js) */
  constructor(profile) {
    this.profile = profile;
    this.schema = [];
    $('schema-filter').addEventListener('input', () => this.draw());
  }

  /** A new dataset opened: no filter. */
  reset() {
    $('schema-filter').value = '';
  }

  show(schema) {
    this.schema = schema || [];
    this.draw();
  }

  draw() {
    const wanted = $('schema-filter').value.trim().toLowerCase();
    const shown = this.schema.filter((c) => !wanted || [c.name, c.friendly_type, c.type]
      .some((text) => (text || '').toLowerCase().includes(wanted)));
    $('schema-columns').replaceChildren(...shown.map((c) => {
      const tr = document.createElement('tr');
      for (const text of [c.name, c.friendly_type, c.type]) {
        const td = document.createElement('td');
        td.textContent = text;
        tr.append(td);
      }
      tr.append(...this.profile.cells(c.name));
      return tr;
    }));
    const all = this.schema.length.toLocaleString();
    $('schema-shown').textContent = wanted ? `${shown.length.toLocaleString()} of ${all} columns` : '';
  }
}
