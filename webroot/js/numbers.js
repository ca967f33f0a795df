// The numbers an answer states, as the server checked them against its turn's results (NumberCheck): a number found
// in a result links to its cell, one several values are is marked neutrally with how many (it is no link: the check
// cannot tell which), one not found is marked quietly; one not checked is left as it is. The server gives positions in the answer's markdown;
// the page shows it rendered (emphasis, lists, links change the text), so each number is found again in the rendered
// text by its own text, in order, after the one before it. A number that cannot be found again is left as it is.
// An answer's linked numbers are one tab stop: the arrow keys, Home and End move among them (a roving tabindex).

/** Result id → the tables drawn of it, as {element, showCell(row, column)}. */
const tables = new Map();

const UNMATCHED = 'not found in the query results';

/** What a number several values of the results are says of itself. */
export function severalValues(count) {
  return `matches ${count} values in the query results`;
}

/** A table of a stored result on the page, which a checked number can bring into view. */
export function registerResultTable(resultId, element, showCell) {
  if (!resultId) return;
  const drawn = (tables.get(resultId) || []).filter((t) => t.element.isConnected);
  drawn.push({ element, showCell });
  tables.set(resultId, drawn);
}

function tableOf(resultId) {
  return (tables.get(resultId) || []).find((t) => t.element.isConnected) || null;
}

/** Where a matched number was found, in words: "cars, row 3 of the result". */
export function whereFound(cell) {
  return cell.row < 0 ? "the result's row count" : `${cell.column}, row ${cell.row + 1} of the result`;
}

function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
}

/** The text nodes a number can be in: not code (the server does not check it), not inside a link already. */
function textNodes(root) {
  const nodes = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.parentElement.closest('code, pre, a') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  while (walker.nextNode()) nodes.push(walker.currentNode);
  return nodes;
}

function linkTo(cell) {
  const link = document.createElement('a');
  link.href = '#';
  link.className = 'checked-number';
  const where = whereFound(cell);
  link.title = where;
  link.dataset.where = where;
  link.addEventListener('click', (e) => {
    e.preventDefault();
    const table = tableOf(cell.result_id);
    if (table) {
      table.showCell(cell.row, cell.column);
    } else {
      link.title = `${where} (that result is not shown on this page)`;
    }
  });
  return link;
}

function quietMark(className, words) {
  const mark = document.createElement('span');
  mark.className = className;
  mark.title = words;
  mark.dataset.where = words;
  return mark;
}

function markFor(claim) {
  if (claim.verdict === 'found') return linkTo(claim);
  if (claim.verdict === 'several') return quietMark('several-number', severalValues(claim.count));
  return quietMark('unchecked-number', UNMATCHED);
}

/**
 * Marks the numbers of a rendered answer.
 * @param numbers {cells: [{text, position, result_id, row, column}], several: [{text, position, count}],
 *     unmatched: [{text, position}]}, or nothing
 */
export function markNumbers(content, numbers) {
  if (!numbers) return;
  const claims = [...(numbers.cells || []).map((c) => ({ ...c, verdict: 'found' })),
    ...(numbers.several || []).map((s) => ({ ...s, verdict: 'several' })),
    ...(numbers.unmatched || []).map((u) => ({ ...u, verdict: 'unmatched' }))].sort((a, b) => a.position - b.position);
  const nodes = textNodes(content);
  let at = 0;
  for (const claim of claims) {
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}_.,])${escape(claim.text)}(?![\\p{L}\\p{N}_])`, 'u');
    // A number not found again leaves the search where it was, for the next one.
    for (let i = at; i < nodes.length; i += 1) {
      const m = pattern.exec(nodes[i].data);
      if (!m) continue;
      const number = nodes[i].splitText(m.index);
      const after = number.splitText(m[0].length);
      const mark = markFor(claim);
      number.replaceWith(mark);
      mark.append(number);
      nodes[i] = after; // the next number is after this one, maybe in the same text
      at = i;
      break;
    }
  }
  oneTabStop(content);
}

const MOVES = { ArrowRight: (i) => i + 1, ArrowLeft: (i) => i - 1, Home: () => 0, End: (i, n) => n - 1 };
/** Answers whose keys move among their numbers already (their content is drawn again, its listeners stay). */
const listening = new WeakSet();

function giveTabStop(links, link) {
  links.forEach((l) => { l.tabIndex = l === link ? 0 : -1; });
}

/** The first linked number takes Tab, the others the arrow keys; the one last focused is where Tab comes back. */
function oneTabStop(content) {
  const links = [...content.querySelectorAll('.checked-number')];
  giveTabStop(links, links[0]);
  if (listening.has(content)) return;
  listening.add(content);
  content.addEventListener('focusin', (e) => {
    if (e.target.matches?.('.checked-number')) giveTabStop([...content.querySelectorAll('.checked-number')], e.target);
  });
  content.addEventListener('keydown', (e) => {
    const move = MOVES[e.key];
    if (!move || !e.target.matches?.('.checked-number') || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    const all = [...content.querySelectorAll('.checked-number')];
    all[Math.max(0, Math.min(all.length - 1, move(all.indexOf(e.target), all.length)))].focus();
  });
}
