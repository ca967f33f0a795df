// What an empty conversation shows above the input: how to start, or which of its tables are ready to ask about.
import { elements } from './elements.js';

const $ = elements(['onboarding', 'onboarding-title', 'onboarding-text', 'samples']);

function names(list) {
  return list.length === 1 ? list[0] : `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;
}

/** @param datasets the conversation's datasets, as stored */
export function showEmptyState(visible, datasets) {
  $('onboarding').hidden = !visible;
  if (!visible) return;
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
    $('onboarding-text').textContent = 'Paste the URL of a public Parquet file in the datasets panel, or try sample data:';
  }
}
