// Markdown as the model writes it, always sanitised before it reaches the page.
export function renderMarkdown(text) {
  const html = window.marked.parse(text || '', { gfm: true, breaks: false });
  return window.DOMPurify.sanitize(html);
}
