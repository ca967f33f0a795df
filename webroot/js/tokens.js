// The account page's API tokens, in a dialog opened from the sidebar: make one (name, scope, expiry), shown this once
// with a copy button; the list (name, scope, created, last used, expires) with a revoke each, asked in the page's own
// dialog. The same in local mode (the one user's tokens) and password mode (the signed-in user's).
import { api } from './api.js';
import { askDialog } from './ask-dialog.js';
import { elements } from './elements.js';
import { copyButton } from './save-file.js';

const $ = elements(['open-tokens', 'tokens-modal', 'tokens-close', 'token-form', 'token-name', 'token-scope',
  'token-expiry', 'token-error', 'token-made', 'token-text', 'token-copy', 'token-list', 'tokens-empty',
  'tokens-title']);

export function initTokens() {
  $('open-tokens').addEventListener('click', open);
  $('tokens-close').addEventListener('click', () => $('tokens-modal').close());
  $('tokens-modal').addEventListener('close', () => {
    // The token leaves the page with the dialog: it is not there to be read later.
    $('token-text').value = '';
    $('token-made').hidden = true;
    $('open-tokens').focus();
  });
  $('token-form').addEventListener('submit', (e) => {
    e.preventDefault();
    create();
  });
  $('token-copy').append(copyButton('Copy', () => $('token-text').value, 'Copy the token'));
}

async function open() {
  $('token-error').textContent = '';
  $('tokens-modal').showModal();
  $('token-name').focus();
  await list();
}

async function create() {
  $('token-error').textContent = '';
  const days = $('token-expiry').value;
  try {
    const made = await api.createToken({
      name: $('token-name').value.trim() || null,
      scope: $('token-scope').value,
      expires_in_days: days ? Number(days) : null,
    });
    $('token-text').value = made.token;
    $('token-made').hidden = false;
    $('token-name').value = '';
    $('token-text').focus();
    $('token-text').select();
    await list();
  } catch (e) {
    $('token-error').textContent = e.message;
  }
}

async function list() {
  try {
    const { tokens } = await api.tokens();
    $('token-list').replaceChildren(...tokens.slice().reverse().map(row));
    $('tokens-empty').hidden = tokens.length > 0;
  } catch (e) {
    $('token-error').textContent = e.message;
  }
}

function row(token) {
  const tr = document.createElement('tr');
  const name = token.name || 'Unnamed';
  [name, token.scope, when(token.created_at), when(token.last_used_at), when(token.expires_at)]
    .forEach((text, i) => tr.append(cell(i === 0 ? 'th' : 'td', text)));
  const last = document.createElement('td');
  if (token.status === 'active') {
    const revoke = document.createElement('button');
    revoke.type = 'button';
    revoke.textContent = 'Revoke';
    revoke.setAttribute('aria-label', `Revoke ${name}`);
    revoke.addEventListener('click', () => confirmRevoke(token, name));
    last.append(revoke);
  } else {
    last.textContent = token.status === 'revoked' ? 'Revoked' : 'Expired';
  }
  tr.append(last);
  return tr;
}

function cell(tag, text) {
  const el = document.createElement(tag);
  if (tag === 'th') el.scope = 'row';
  el.textContent = text;
  return el;
}

/** A stored instant as this browser shows dates; "never" for none. */
function when(iso) {
  return iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : 'never';
}

async function confirmRevoke(token, name) {
  const revoked = await askDialog({
    title: `Revoke ${name}?`,
    message: 'Programs using this token are refused from their next request. This cannot be undone.',
    confirm: 'Revoke',
    onConfirm: () => api.revokeToken(token.id),
  });
  if (revoked) {
    await list();
    $('tokens-title').focus();
  }
}
