// A result that read an earlier version of its data says so: "The data has changed since this result", with Re-run.
// A result names the versions it read (sources: {url, etag, size}); a dataset records the version last seen (etag,
// file_size), which a later query or a refresh updates (the server then sends dataset_loaded). The datasets panel
// tells of every change (quarry:datasets); each result on the page is checked again then, and when it is drawn.

/** The results on the page that name their sources: {block, result, notice, rerun}. */
let watched = [];
let datasets = [];

/** Whether a source was read in another version than its dataset's current one. */
function changed(source, dataset) {
  if (source.etag && dataset.etag) return source.etag !== dataset.etag;
  return source.size != null && dataset.file_size != null && Number(source.size) !== Number(dataset.file_size);
}

/** Whether the result read a version its conversation's dataset of the same file no longer has. */
function stale(result) {
  return (result.sources || []).some((source) => datasets.some((d) => d.url === source.url
    && d.conversation_id === result.conversation_id && d.status === 'ready' && changed(source, d)));
}

function notice(entry) {
  const box = document.createElement('div');
  box.className = 'data-changed';
  box.setAttribute('role', 'status');
  const text = document.createElement('p');
  text.textContent = 'The data has changed since this result.';
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Re-run';
  button.title = 'Runs the same SQL on the data as it is now; the new result shows after this one, which stays';
  button.addEventListener('click', () => entry.rerun(button));
  box.append(text, button);
  return box;
}

function check(entry) {
  const show = stale(entry.result);
  if (show && !entry.notice) {
    entry.notice = notice(entry);
    const panel = entry.block.querySelector(':scope > .sql-panel');
    if (panel) panel.before(entry.notice); else entry.block.prepend(entry.notice);
  } else if (!show && entry.notice) {
    entry.notice.remove();
    entry.notice = null;
  }
}

/**
 * Watches a stored result drawn in block.
 * @param rerun (button) => void: runs the result's SQL again as a new result
 */
export function watchVersion(block, result, rerun) {
  if (!result.sources?.length) return;
  watched = watched.filter((e) => e.block.isConnected);
  const entry = { block, result, notice: null, rerun };
  watched.push(entry);
  check(entry);
}

document.addEventListener('quarry:datasets', (e) => {
  datasets = e.detail || [];
  watched = watched.filter((entry) => entry.block.isConnected);
  watched.forEach(check);
});
