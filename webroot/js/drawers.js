// On a narrow screen the side panels (conversations, datasets) are drawers over the conversation, each opened by
// its button in the chat's header. An open drawer takes the keyboard: the rest of the page is inert, Esc or its
// Close button closes it and focus goes back to the button that opened it. On a wide screen they are plain panels.
import { elements } from './elements.js';

const NARROW = window.matchMedia('(max-width: 900px)');
const $ = elements(['conversations-panel', 'datasets-panel', 'drawer-scrim', 'open-conversations', 'open-datasets',
  'skip-to-input']);
/** What must not take focus or clicks while a drawer is open: everything but the drawer itself. */
const OUTSIDE = () => [$('skip-to-input'), document.querySelector('main.chat'), $('conversations-panel'),
  $('datasets-panel')];

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), '
  + 'textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

class Drawers {
  constructor() {
    this.toggles = [$('open-conversations'), $('open-datasets')];
    this.openOne = null;
    for (const toggle of this.toggles) {
      toggle.addEventListener('click', () => this.open(this.panelOf(toggle)));
    }
    for (const panel of [$('conversations-panel'), $('datasets-panel')]) {
      panel.querySelector('[data-drawer-close]').addEventListener('click', () => this.close());
    }
    $('drawer-scrim').addEventListener('click', () => this.close());
    document.addEventListener('keydown', (e) => this.onKey(e));
    // Grown wide, the panels are panels again: nothing stays inert.
    NARROW.addEventListener('change', () => { if (!NARROW.matches) this.close({ returnFocus: false }); });
  }

  panelOf(toggle) {
    return document.getElementById(toggle.getAttribute('aria-controls'));
  }

  toggleOf(panel) {
    return this.toggles.find((t) => t.getAttribute('aria-controls') === panel.id);
  }

  /** Opens a panel as a drawer (on a narrow screen only) and moves focus into it. */
  open(panel) {
    if (!NARROW.matches) return;
    if (this.openOne) this.close({ returnFocus: false });
    this.openOne = panel;
    panel.classList.add('open');
    this.toggleOf(panel).setAttribute('aria-expanded', 'true');
    $('drawer-scrim').hidden = false;
    for (const el of OUTSIDE()) el.inert = el !== panel;
    panel.querySelector('[data-drawer-close]').focus();
  }

  /** @param returnFocus whether focus goes back to the drawer's button (not when the drawer led somewhere else) */
  close({ returnFocus = true } = {}) {
    const panel = this.openOne;
    if (!panel) return;
    this.openOne = null;
    panel.classList.remove('open');
    const toggle = this.toggleOf(panel);
    toggle.setAttribute('aria-expanded', 'false');
    $('drawer-scrim').hidden = true;
    for (const el of OUTSIDE()) el.inert = false;
    if (returnFocus) toggle.focus();
  }

  /**
   * Esc closes the open drawer, unless a dialog over it takes the key (it closes the dialog); Tab goes round the
   * drawer's controls (the rest of the page is inert, and the browser's own controls are not the page's).
   */
  onKey(e) {
    if (!this.openOne || e.defaultPrevented || document.querySelector('dialog[open]')) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      this.close();
    } else if (e.key === 'Tab') {
      const controls = [...this.openOne.querySelectorAll(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
      const first = controls[0];
      const last = controls[controls.length - 1];
      const inside = this.openOne.contains(document.activeElement);
      if (e.shiftKey && (document.activeElement === first || !inside)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (document.activeElement === last || !inside)) {
        e.preventDefault();
        first.focus();
      }
    }
  }
}

export const drawers = new Drawers();
