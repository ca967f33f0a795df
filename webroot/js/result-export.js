// A result's whole data as a file: "Download CSV" and "Download Parquet" ask the server to run the result's SQL again
// on the same version of the data (GET /api/results/:rid/export), so the file holds every row, not only the up to
// 1,000 the page keeps. The file is fetched, not followed as a link, so that a refusal (the data changed: 409; too
// large: 413; gone: 404) is said in plain words beside the result instead of becoming a broken download.
import { api } from './api.js';
import { count } from './format.js';
import { busy } from './keep-focus.js';
import { copyButton, saveFile } from './save-file.js';
import { sortedBy } from './table-sort.js';
import { scheduleButton } from './schedules.js';

const FORMATS = [['csv', 'CSV'], ['parquet', 'Parquet']];

/** The file name the server gave (RFC 6266's filename* first), or a plain one. */
export function attachmentName(header, extension) {
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(header || '');
  if (encoded) {
    try {
      return decodeURIComponent(encoded[1]);
    } catch {
      // a malformed name: the plain one below will do
    }
  }
  const plain = /filename="([^"]+)"/i.exec(header || '');
  return plain ? plain[1] : `result.${extension}`;
}

async function refusal(response) {
  try {
    const body = await response.json();
    if (body?.error) return body.error;
  } catch {
    // not ours (a proxy's error page): the status says what happened
  }
  return `the server answered ${response.status}`;
}

async function download(resultId, format, label, button, status, sort) {
  const done = busy(button);
  status.classList.remove('error');
  status.textContent = `Preparing the ${label} of every row…`;
  try {
    const response = await api.exportResult(resultId, format, sort);
    if (!response.ok) throw new Error(await refusal(response));
    let blob;
    try {
      blob = await response.blob();
    } catch {
      // The server breaks a download off when it cannot finish it (its worker stopped): nothing half is saved.
      throw new Error('it broke off before its end; try again');
    }
    saveFile(blob, attachmentName(response.headers.get('content-disposition'), format));
    const rows = Number(response.headers.get('x-quarry-rows'));
    status.textContent = Number.isFinite(rows) && response.headers.has('x-quarry-rows')
      ? `Downloaded ${count(rows, 'row')} as ${label}${sortedBy(sort)}.`
      : `Downloaded as ${label}${sortedBy(sort)}.`;
  } catch (e) {
    status.classList.add('error');
    status.textContent = `The ${label} could not be downloaded: ${e.message}`;
  } finally {
    done();
  }
}

/**
 * The actions of a stored result: its whole data as CSV or Parquet, and its SQL copied.
 * @param result a stored result ({id, sql}); a result with no id (not stored) has nothing to download
 * @param sort   () => the sort of the result's table ({column, ascending}) or null: a download follows it
 */
export function resultActions(result, sql, sort = () => null) {
  const bar = document.createElement('div');
  bar.className = 'result-actions';
  const status = document.createElement('p');
  status.className = 'result-actions-status';
  status.setAttribute('role', 'status');
  if (result.id) {
    for (const [format, label] of FORMATS) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = `Download ${label}`;
      button.title = `Every row of the result as ${label} (its query runs again on the same data)`;
      button.addEventListener('click', () => download(result.id, format, label, button, status, sort()));
      bar.append(button);
    }
  }
  if (sql) bar.append(copyButton('Copy SQL', () => sql, 'Copies the SQL of this result'));
  if (result.id) bar.append(scheduleButton(result.id));
  if (!bar.childElementCount) return null;
  bar.append(status);
  return bar;
}

/** Says in a result's status line what just happened to its rows (the table saved its own, say). */
export function tell(actions, text) {
  const status = actions?.querySelector('.result-actions-status');
  if (!status) return;
  status.classList.remove('error');
  status.textContent = text;
}
