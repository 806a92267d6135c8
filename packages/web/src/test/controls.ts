/**
 * The labels of the form controls in `container`, in order: inputs, selects, text areas and
 * Radix's radios, checkboxes and select triggers (hidden ones, Radix's native twins among them, left out), each by
 * its label's text up to the first colon (a visibility mode's "Live: anyone sees…" is "Live"),
 * else its aria-label. A shared form's test compares them with the full list a place shows, so
 * it fails when a place loses (or gains) a field.
 */
export function controlLabels(container: HTMLElement): string[] {
  const controls = container.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | HTMLButtonElement>(
    'input, select, textarea, button[role="radio"], button[role="checkbox"], button[role="combobox"]',
  );
  return [...controls]
    .filter((el) => !el.closest('[hidden], [aria-hidden="true"]') && !(el instanceof HTMLInputElement && el.type === 'hidden'))
    .map((el) => (el.labels?.[0]?.textContent ?? el.getAttribute('aria-label') ?? '(no label)').split(':')[0]!.trim());
}
