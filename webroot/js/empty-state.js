// What an empty conversation shows above the input: how to start, or which of its tables are ready to ask about,
// with starter questions built from their columns that are asked on click.
import { elements } from './elements.js';
import { starterQuestions } from './starters.js';

const $ = elements(['onboarding', 'onboarding-title', 'onboarding-text', 'samples', 'starters', 'starter-list']);

function names(list) {
  return list.length === 1 ? list[0] : `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;
}

/** The starter questions, each a button that asks it. */
function showStarters(datasets, ask) {
  const questions = ask ? starterQuestions(datasets) : [];
  $('starters').hidden = questions.length === 0;
  const shown = [...$('starter-list').querySelectorAll('button')].map((b) => b.textContent);
  if (shown.join('\n') === questions.join('\n')) return; // unchanged: focus stays where it is
  $('starter-list').replaceChildren(...questions.map((question) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'starter';
    b.textContent = question;
    b.addEventListener('click', () => ask(question));
    li.append(b);
    return li;
  }));
}

/**
 * @param datasets the conversation's datasets, as stored
 * @param ask asks a starter question as if typed and sent
 */
export function showEmptyState(visible, datasets, ask) {
  $('onboarding').hidden = !visible;
  if (!visible) return;
  showStarters(datasets, ask);
  const ready = datasets.filter((d) => d.status === 'ready').map((d) => d.name);
  const loading = datasets.filter((d) => d.status === 'loading').map((d) => d.name);
  $('samples').hidden = ready.length > 0 || loading.length > 0;
  if (ready.length) {
    const one = ready.length === 1;
    $('onboarding-title').textContent = `${names(ready)} ${one ? 'is' : 'are'} ready`;
    $('onboarding-text').textContent = `Ask a question about ${one ? 'it' : 'them'} below, or add another dataset.`;
  } else if (loading.length) {
    $('onboarding-title').textContent = `Loading ${names(loading)}…`;
    $('onboarding-text').textContent = 'You can ask about it as soon as it is ready.';
  } else {
    $('onboarding-title').textContent = 'Ask questions of Parquet files';
    $('onboarding-text').textContent = 'Paste the URL of a Parquet, CSV or JSON file in the datasets panel, upload one, or try sample data:';
  }
}
