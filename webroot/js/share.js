// Share links: "Share" in the conversation's header (the conversation as it is now) and "Share answer" under each
// answer (that answer and its question) open one dialog: who may open the link (within what this Quarry allows,
// share.audience, which /api/me tells), the name it shows, when it expires. The new link is shown once, with a copy
// button; the list below holds every link of the user's, each with Revoke (asked in the page's own dialog).
import { api } from './api.js';
import { askDialog } from './ask-dialog.js';
import { elements } from './elements.js';
import { copyButton } from './save-file.js';

const $ = elements(['share-conversation', 'share-modal', 'share-close', 'share-what', 'share-form', 'share-audience',
  'share-name', 'share-expiry', 'share-error', 'share-made', 'share-link', 'share-copy', 'share-list', 'shares-empty',
  'share-title']);

const target = { conversationId: null, messageId: null, opener: null };

/**
 * @param conversationId () => the id of the conversation shown, or null
 * @param ceiling        who links may open for on this server (share.audience): anyone, users or off
 */
export function initShares(conversationId, ceiling) {
  // The dialog offers what the server allows; with sharing off there is nothing to offer at all.
  document.body.dataset.sharing = ceiling || 'users';
  if (ceiling !== 'anyone') $('share-audience').querySelector('option[value=anyone]')?.remove();
  $('share-conversation').addEventListener('click', () => open(conversationId(), null, $('share-conversation')));
  document.addEventListener('quarry:share', (e) => open(conversationId(), e.detail.messageId || null, e.detail.opener));
  $('share-close').addEventListener('click', () => $('share-modal').close());
  $('share-modal').addEventListener('close', () => {
    // The link leaves the page with the dialog: its token is not kept anywhere to be read later.
    $('share-link').value = '';
    $('share-made').hidden = true;
    target.opener?.focus();
  });
  $('share-form').addEventListener('submit', (e) => {
    e.preventDefault();
    create();
  });
  $('share-copy').append(copyButton('Copy link', () => $('share-link').value, 'Copy the link'));
}

/** Whether a conversation is shown, so that there is something to share. */
export function showShareButton(visible) {
  $('share-conversation').hidden = !visible;
}

async function open(conversationId, messageId, opener) {
  if (!conversationId) return;
  Object.assign(target, { conversationId, messageId, opener });
  $('share-what').textContent = messageId
    ? 'A read-only link to this answer and its question, with its SQL, tables and charts.'
    : 'A read-only link to this conversation as it is now: what is asked later is not shown.';
  $('share-error').textContent = '';
  $('share-modal').showModal();
  $('share-audience').focus();
  await list();
}

async function create() {
  $('share-error').textContent = '';
  const days = $('share-expiry').value;
  try {
    const made = await api.createShare({
      conversation_id: target.conversationId,
      message_id: target.messageId || undefined,
      audience: $('share-audience').value,
      display_name: $('share-name').value.trim() || undefined,
      expires_in_days: days ? Number(days) : undefined,
    });
    $('share-link').value = new URL(made.url, window.location.origin).href;
    $('share-made').hidden = false;
    $('share-link').focus();
    $('share-link').select();
    await list();
  } catch (e) {
    $('share-error').textContent = e.message;
  }
}

async function list() {
  try {
    const { shares } = await api.shares();
    $('share-list').replaceChildren(...shares.map(row));
    $('shares-empty').hidden = shares.length > 0;
  } catch (e) {
    $('share-error').textContent = e.message;
  }
}

function row(share) {
  const tr = document.createElement('tr');
  const shows = `${share.kind === 'message' ? 'An answer in ' : ''}${share.title || 'a deleted conversation'}`;
  const who = share.audience === 'anyone' ? 'anyone with the link' : 'signed-in users';
  [shows, who, when(share.created_at), when(share.expires_at)]
    .forEach((text, i) => tr.append(cell(i === 0 ? 'th' : 'td', text)));
  const last = document.createElement('td');
  if (share.status === 'active') {
    const revoke = document.createElement('button');
    revoke.type = 'button';
    revoke.textContent = 'Revoke';
    revoke.setAttribute('aria-label', `Revoke the link to ${shows}`);
    revoke.addEventListener('click', () => confirmRevoke(share, shows));
    last.append(revoke);
  } else {
    last.textContent = share.status === 'revoked' ? 'Revoked' : 'Expired';
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

function when(iso) {
  return iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : 'never';
}

async function confirmRevoke(share, shows) {
  const revoked = await askDialog({
    title: 'Revoke this link?',
    message: `The link to ${shows} stops working at once for everyone who has it. This cannot be undone.`,
    confirm: 'Revoke',
    onConfirm: () => api.revokeShare(share.id),
  });
  if (revoked) {
    await list();
    $('share-title').focus();
  }
}
