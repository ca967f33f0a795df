// Markdown as the model writes it, reduced to what markdown needs before it reaches the page. An answer can be
// steered by poisoned cell values, so it may not draw forms or overlays (no form controls, no style), plant ids
// or names the app could mistake for its own, or load a remote image whose URL carries data out: such an image
// is shown as its link instead.
const ALLOWED_TAGS = ['a', 'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'em', 'strong', 'del', 's',
  'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'img', 'sup', 'sub'];
const ALLOWED_ATTR = ['href', 'title', 'alt', 'src', 'align', 'start'];

// A fragment, not HTML text: what was sanitised is what is shown, with no second parse in between.
export function renderMarkdown(text) {
  const html = window.marked.parse(text || '', { gfm: true, breaks: false });
  const fragment = window.DOMPurify.sanitize(html, {
    ALLOWED_TAGS, ALLOWED_ATTR, ALLOW_DATA_ATTR: false, ALLOW_ARIA_ATTR: false, RETURN_DOM_FRAGMENT: true,
  });
  fragment.querySelectorAll('img').forEach(linkUnlessInline);
  fragment.querySelectorAll('a[href]').forEach((a) => {
    a.target = '_blank';
    a.rel = 'noopener noreferrer nofollow';
  });
  return fragment;
}

function linkUnlessInline(img) {
  const src = img.getAttribute('src') || '';
  if (/^data:image\//i.test(src)) return;
  const link = document.createElement('a');
  link.href = src;
  link.className = 'image-link';
  link.textContent = `Image: ${img.getAttribute('alt') || src}`;
  link.title = src;
  img.replaceWith(link);
}
