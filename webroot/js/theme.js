// Light, dark or the system's theme, remembered in this browser.
import { elements } from './elements.js';

const $ = elements(['theme']);

function applyTheme(choice) {
  const dark = choice === 'dark' || (choice === 'system' && matchMedia('(prefers-color-scheme: dark)').matches);
  const theme = dark ? 'dark' : 'light';
  if (document.documentElement.dataset.theme === theme) return;
  document.documentElement.dataset.theme = theme;
  // Charts take their colours from the theme: they are drawn again in the new one.
  document.dispatchEvent(new CustomEvent('quarry:theme', { detail: { theme } }));
}

export function initTheme() {
  const saved = localStorage.getItem('quarry-theme') || 'system';
  $('theme').value = saved;
  applyTheme(saved);
  $('theme').addEventListener('change', (e) => {
    localStorage.setItem('quarry-theme', e.target.value);
    applyTheme(e.target.value);
  });
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => applyTheme($('theme').value));
}
