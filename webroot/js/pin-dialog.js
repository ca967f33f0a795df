// "Pin to board" on a result's table or chart: a modal dialog picks one of the user's boards or makes a new one, and
// names the tile (by default the question that produced it, else the SQL's first line). The server copies the
// result's rows into the tile; the page sends only which result, which kind and a chart's spec.
import { api } from './api.js';

const NEW = '';

function element(tag, props = {}) {
  const el = document.createElement(tag);
  Object.entries(props).forEach(([k, v]) => {
    if (k.includes('-') || k === 'role') el.setAttribute(k, v); else el[k] = v;
  });
  return el;
}

/** The question an answer's result answers: the user's message before the answer it stands in, or ''. */
export function questionOf(block) {
  let el = block.closest('article.message');
  while (el && !el.classList.contains('user')) el = el.previousElementSibling;
  return el ? el.textContent.trim() : '';
}

export function firstLine(sql) {
  return (sql || '').split('\n').map((l) => l.trim()).find((l) => l) || 'Query';
}

/**
 * A "Pin to board" button.
 * @param tile () => {result_id, kind, chart?, title}: what to pin, asked when the button is pressed
 */
export function pinButton(tile) {
  const button = element('button', { type: 'button', className: 'pin-to-board', textContent: 'Pin to board' });
  button.addEventListener('click', () => pinDialog(tile()));
  return button;
}

async function pinDialog(tile) {
  const opener = document.activeElement;
  const id = `pin-${Math.random().toString(36).slice(2)}`;
  const dialog = element('dialog', { className: 'modal pin-dialog', 'aria-modal': 'true', 'aria-labelledby': `${id}-title` });
  const form = element('form', { className: 'modal-body', noValidate: true });
  const boards = element('select', { id: `${id}-board` });
  const boardTitle = element('input', { id: `${id}-new`, type: 'text', autocomplete: 'off', maxLength: 200,
    value: 'New board' });
  const newField = element('div', { className: 'pin-new-board' });
  newField.append(element('label', { htmlFor: boardTitle.id, textContent: 'New board title' }), boardTitle);
  const title = element('input', { id: `${id}-title-field`, type: 'text', autocomplete: 'off', maxLength: 200,
    value: (tile.title || '').slice(0, 200) });
  const error = element('p', { className: 'field-error', role: 'alert' });
  const done = element('p', { className: 'pin-done', role: 'status' });
  const ok = element('button', { type: 'submit', className: 'primary', textContent: 'Pin' });
  const cancel = element('button', { type: 'button', textContent: 'Cancel' });
  const actions = element('div', { className: 'modal-actions' });
  actions.append(cancel, ok);
  form.append(element('h2', { id: `${id}-title`, textContent: tile.kind === 'chart' ? 'Pin chart to board'
    : 'Pin table to board' }), element('label', { htmlFor: boards.id, textContent: 'Board' }), boards, newField,
  element('label', { htmlFor: title.id, textContent: 'Tile title' }), title, error, done, actions);
  dialog.append(form);
  document.body.append(dialog);
  boards.append(element('option', { value: NEW, textContent: 'New board…' }));
  try {
    for (const b of (await api.boards()).boards) boards.append(element('option', { value: b.id, textContent: b.title }));
    if (boards.options.length > 1) boards.selectedIndex = 1;
  } catch (e) {
    error.textContent = e.message;
  }
  const chosen = () => { newField.hidden = boards.value !== NEW; };
  boards.addEventListener('change', chosen);
  chosen();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    ok.disabled = true;
    error.textContent = '';
    try {
      let boardId = boards.value;
      if (boardId === NEW) {
        const made = await api.createBoard(boardTitle.value.trim());
        boards.append(element('option', { value: made.id, textContent: made.title }));
        boards.value = made.id;
        chosen();
        boardId = made.id;
      }
      await api.pinTile(boardId, { ...tile, title: title.value.trim() || undefined });
      const name = boards.selectedOptions[0].textContent;
      done.replaceChildren(`Pinned to ${name}. `, element('a', { href: `/b/${boardId}`, textContent: 'Open board' }));
      cancel.textContent = 'Close';
      done.querySelector('a').focus();
    } catch (err) {
      error.textContent = err.message;
      ok.disabled = false;
    }
  });
  cancel.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => {
    dialog.remove();
    if (opener?.isConnected) opener.focus();
  });
  dialog.showModal();
  title.focus();
  title.select();
}
