// A card drawn anew replaces the old one. When the focus was inside it, it moves to the same control of the new card
// (or its first control left enabled): an update that arrives while someone is on a card, by keyboard or after a
// dialog gave the focus back to it, must not drop them at the top of the page.
export function replaceKeepingFocus(old, fresh) {
  const focused = old.contains(document.activeElement) ? document.activeElement : null;
  old.replaceWith(fresh);
  if (!focused) return;
  const controls = [...fresh.querySelectorAll('button, a[href], input, select, textarea, [tabindex]')]
    .filter((el) => !el.disabled);
  const same = controls.find((el) => el.tagName === focused.tagName && el.className === focused.className
    && el.getAttribute('aria-label') === focused.getAttribute('aria-label'));
  (same || controls[0])?.focus();
}

/**
 * Disables a button while its work runs, which takes the focus from it. The function returned enables it again and
 * gives the focus back (to the button, or to the one that stands for it once drawn anew) unless the person moved on
 * meanwhile, so that a keyboard user stays where they were.
 */
export function busy(button) {
  const focused = document.activeElement === button;
  button.disabled = true;
  return (target = button) => {
    button.disabled = false;
    if (focused && (document.activeElement === document.body || document.activeElement === button)) target?.focus();
  };
}
