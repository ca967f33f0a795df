// The page's own question box, in place of the browser's prompt() and confirm(): a modal <dialog> with a heading it
// is named by, focus inside it, Escape (or Cancel) closes it with nothing done, Enter confirms, and focus goes back
// to the control that opened it. A confirmation that fails (the server refused) says why and stays open.

/**
 * @param title     the dialog's heading (its accessible name)
 * @param message   what it asks, when there is no field (describes the dialog)
 * @param field     {label, value}: a text field to fill, given back trimmed; an empty one is not confirmed
 * @param confirm   the confirming button's text
 * @param onConfirm async (text) => void; what it throws is shown in the dialog, which stays open
 * @returns Promise<boolean> whether it was confirmed (and onConfirm succeeded)
 */
export function askDialog({ title, message, field, confirm, onConfirm }) {
  const opener = document.activeElement;
  const id = `ask-${Math.random().toString(36).slice(2)}`;
  const dialog = element('dialog', { className: 'modal ask-dialog', 'aria-modal': 'true', 'aria-labelledby': `${id}-title` });
  const form = element('form', { className: 'modal-body', noValidate: true });
  form.append(element('h2', { id: `${id}-title`, textContent: title }));
  let input = null;
  if (field) {
    input = element('input', { id: `${id}-field`, type: 'text', autocomplete: 'off', value: field.value || '' });
    form.append(element('label', { htmlFor: input.id, textContent: field.label }), input);
  } else {
    form.append(element('p', { id: `${id}-message`, textContent: message }));
    dialog.setAttribute('aria-describedby', `${id}-message`);
  }
  const error = element('p', { className: 'field-error', role: 'alert' });
  const ok = element('button', { type: 'submit', className: 'primary', textContent: confirm });
  const cancel = element('button', { type: 'button', textContent: 'Cancel' });
  const actions = element('div', { className: 'modal-actions' });
  actions.append(cancel, ok);
  form.append(error, actions);
  dialog.append(form);
  document.body.append(dialog);

  return new Promise((resolve) => {
    let confirmed = false;
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const text = input ? input.value.trim() : '';
      if (input && !text) {
        error.textContent = `Type a ${field.label.toLowerCase()}`;
        return;
      }
      ok.disabled = true;
      try {
        await onConfirm?.(text);
        confirmed = true;
        dialog.close();
      } catch (err) {
        error.textContent = err.message;
        ok.disabled = false;
      }
    });
    cancel.addEventListener('click', () => dialog.close());
    dialog.addEventListener('close', () => {
      dialog.remove();
      if (opener?.isConnected) opener.focus();
      resolve(confirmed);
    });
    dialog.showModal();
    if (input) {
      input.focus();
      input.select();
    } else {
      ok.focus();
    }
  });
}

function element(tag, props) {
  const el = document.createElement(tag);
  Object.entries(props).forEach(([k, v]) => {
    if (k.includes('-') || k === 'role') el.setAttribute(k, v); else el[k] = v;
  });
  return el;
}
