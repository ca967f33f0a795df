// Files from the user's disk: the datasets panel's "Upload a file" button and a drop anywhere on the page. Each file
// is sent as the body of POST …/datasets/upload (XMLHttpRequest, for its upload progress), shown meanwhile as a card
// with a progress bar and Cancel; what the server answers is the dataset's card, or a "Not added" card saying why
// (past a size limit, a file Quarry does not read), as for a URL.
import { elements } from './elements.js';

const $ = elements(['dataset-file', 'dataset-upload']);

/** @param panel the DatasetPanel the files are added to */
export class DatasetUploads {
  constructor(panel) {
    this.panel = panel;
    $('dataset-upload').addEventListener('click', () => $('dataset-file').click());
    $('dataset-file').addEventListener('change', () => {
      [...$('dataset-file').files].forEach((file) => this.upload(file));
      $('dataset-file').value = '';
    });
    document.addEventListener('dragover', (e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      document.body.classList.add('dropping');
    });
    document.addEventListener('dragleave', (e) => {
      if (!e.relatedTarget) document.body.classList.remove('dropping');
    });
    document.addEventListener('drop', (e) => {
      document.body.classList.remove('dropping');
      if (!hasFiles(e)) return;
      e.preventDefault();
      [...e.dataTransfer.files].forEach((file) => this.upload(file));
    });
  }

  upload(file) {
    const conversation = this.panel.conversationId();
    const card = progressCard(file.name);
    this.panel.list.append(card.li);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/conversations/${encodeURIComponent(conversation)}/datasets/upload?name=`
      + encodeURIComponent(file.name));
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable) card.progress(e.loaded / e.total);
    });
    xhr.upload.addEventListener('load', () => card.reading());
    card.cancel.addEventListener('click', () => xhr.abort());
    xhr.addEventListener('load', () => this.answered(conversation, file, card, xhr));
    xhr.addEventListener('error', () => this.failed(conversation, file, card,
      { message: 'Quarry cannot be reached; the file was not added' }));
    xhr.addEventListener('abort', () => card.li.remove());
    xhr.send(file);
  }

  answered(conversation, file, card, xhr) {
    let body = null;
    try {
      body = JSON.parse(xhr.responseText);
    } catch {
      // Not ours (a proxy's page): the status says what happened.
    }
    if (xhr.status === 201 && body) {
      card.li.remove();
      if (this.panel.showing(conversation)) this.panel.upsert(body);
      return;
    }
    this.failed(conversation, file, card, { message: body?.error || `HTTP ${xhr.status}`, details: body?.details });
  }

  failed(conversation, file, card, { message, details }) {
    card.li.remove();
    if (this.panel.showing(conversation)) this.panel.notAdded({ url: file.name, message, details, retry: false });
  }
}

function hasFiles(e) {
  return [...(e.dataTransfer?.types || [])].includes('Files');
}

/** "Uploading sales.csv", a progress bar and Cancel; then "Reading sales.csv…" while the server reads it. */
function progressCard(name) {
  const li = document.createElement('li');
  li.className = 'dataset-card uploading';
  const title = document.createElement('div');
  title.className = 'title';
  const label = document.createElement('span');
  label.textContent = `Uploading ${name}`;
  const cancel = document.createElement('button');
  cancel.type = 'button';
  cancel.textContent = 'Cancel';
  cancel.setAttribute('aria-label', `Cancel uploading ${name}`);
  title.append(label, cancel);
  const bar = document.createElement('progress');
  bar.max = 100;
  bar.value = 0;
  bar.setAttribute('aria-label', `Uploading ${name}`);
  li.append(title, bar);
  return {
    li,
    cancel,
    progress(fraction) {
      bar.value = Math.round(fraction * 100);
    },
    reading() {
      bar.removeAttribute('value');
      label.textContent = `Reading ${name}…`;
      cancel.remove();
    },
  };
}
