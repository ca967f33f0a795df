// The dataset URL box belongs to the conversation it was typed in, as the chat box and the SQL box do: a URL typed
// in one and left there is not added to another by one Enter after switching. Kept for the page's life, like SQL.
import { elements } from './elements.js';

const $ = elements(['dataset-url']);
const kept = new Map();

/** Keeps what the URL box held for the conversation left, and shows what it held for the one opened. */
export function switchUrlDraft(from, to) {
  if (from === to) return;
  const box = $('dataset-url');
  if (from) kept.set(from, box.value);
  box.value = kept.get(to) || '';
  // A "Not added" card the box was described by belongs to the conversation left; it is not shown here.
  box.removeAttribute('aria-invalid');
  box.removeAttribute('aria-describedby');
}

/** A URL that was not added goes back to the box of its conversation, shown later, unless another was typed there. */
export function returnUrl(conversation, url) {
  if (!kept.get(conversation)) kept.set(conversation, url);
}
