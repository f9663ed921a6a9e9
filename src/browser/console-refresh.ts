/**
 * The console's Overview refreshes itself every 10 s while the tab is visible (docs/console.md,
 * Overview): it fetches the page again and swaps its `<main>`. Without JavaScript the page is
 * the same, read when it was loaded.
 */
const REFRESH_EVERY_MS = 10_000;

async function refresh(): Promise<void> {
  if (document.hidden) return;
  try {
    const response = await fetch(location.href, { credentials: 'same-origin', headers: { 'X-Console-Refresh': '1' } });
    // A redirect is a session that ended: leave the page as it is rather than swap in the sign-in form.
    if (!response.ok || response.redirected) return;
    const fresh = new DOMParser().parseFromString(await response.text(), 'text/html').querySelector('main');
    const current = document.querySelector('main');
    if (fresh && current) current.replaceChildren(...fresh.childNodes);
  } catch {
    // Offline or the server restarting: the next tick tries again.
  }
}

setInterval(() => void refresh(), REFRESH_EVERY_MS);
