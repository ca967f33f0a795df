// How a query's data is coming, from a query_progress event: "Fetching data… 120 MB of 310 MB" and a bar.

function size(bytes) {
  if (bytes < 1e6) return `${Math.round(bytes / 1e3)} KB`;
  return `${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB`;
}

export function fetchingText(event) {
  const total = event.bytes_total;
  return total == null ? `Fetching data… ${size(event.bytes_done)}` : `Fetching data… ${size(event.bytes_done)} of ${size(total)}`;
}

/** Shows the progress in {@code el}, replacing what it showed. */
export function showProgress(el, event) {
  const text = document.createElement('span');
  text.textContent = fetchingText(event);
  const bar = document.createElement('progress');
  bar.className = 'fetch-progress';
  if (event.bytes_total != null) {
    bar.max = event.bytes_total;
    bar.value = event.bytes_done;
  }
  el.replaceChildren(text, bar);
}
