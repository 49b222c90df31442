/**
 * The console's addresses: every screen has its own under /console, kept in the history, so back,
 * forward and reload land where the merchant was.
 */
import { signal } from "@preact/signals";

const here = () => new URL(location.href);

/** Where the console is now. */
export const route = signal(here());

/** Goes to `to` (a path under /console, with its query), as a new entry of the history. */
export function navigate(to: string) {
  history.pushState(null, "", to);
  route.value = here();
}

addEventListener("popstate", () => {
  route.value = here();
});

/** A click on a link inside the console changes screens without a page load (a modified click still opens a tab). */
export function followLink(event: MouseEvent) {
  const link = (event.target as Element).closest("a");
  if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return;
  const to = new URL(link.href);
  if (to.origin !== location.origin || !to.pathname.startsWith("/console") || link.target) return;
  event.preventDefault();
  navigate(to.pathname + to.search);
}
