// The app's own elements, looked up once when the page starts, before any answer is on it: an element an
// answer brings, whatever its id, can never stand in for one of them.
export function elements(ids) {
  const found = new Map();
  for (const id of ids) {
    const el = document.getElementById(id);
    if (!el) throw new Error(`The page has no #${id}`);
    found.set(id, el);
  }
  return (id) => {
    const el = found.get(id);
    if (!el) throw new Error(`#${id} was not looked up at start`);
    return el;
  };
}
