// Saving and copying from the page: a file the page already holds (a blob, or a data: / blob: URL a chart made) is
// saved through a download link, which the CSP allows without loosening it; a copy goes to the clipboard with a
// word on its button saying whether it worked.

/** Saves a blob, or a URL the page made, under a file name. */
export function saveFile(blobOrUrl, name) {
  const made = blobOrUrl instanceof Blob;
  const link = document.createElement('a');
  link.href = made ? URL.createObjectURL(blobOrUrl) : blobOrUrl;
  link.download = name;
  link.click();
  // The download has taken the blob by the time a minute has passed; it is let go then, not before.
  if (made) setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

/** A button that copies what text() gives, then says "Copied" (or that it failed) for a moment. */
export function copyButton(label, text, title) {
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = label;
  if (title) button.title = title;
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text());
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Copy failed';
    }
    setTimeout(() => { button.textContent = label; }, 2000);
  });
  return button;
}

/** A file-name stem from a title: lower-case words joined by dashes, or the fallback when none is left. */
export function fileStem(title, fallback) {
  const stem = (title || '').normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()
    .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60);
  return stem || fallback;
}
