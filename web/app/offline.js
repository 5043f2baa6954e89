// Offline after the first visit: a page of the bundle (dist/, scripts/build-dist.mjs marks its
// <html data-offline="sw.js">) registers the service worker beside it. The site as built for
// development (build/site) has no worker: every reload there shows the files as they are.
export function registerOffline() {
  const worker = document.documentElement.dataset.offline;
  if (!worker || !('serviceWorker' in navigator)) return null;
  // A failure (a host that refuses workers, a private window) leaves the page as it is, online.
  return navigator.serviceWorker.register(worker).catch((error) => {
    console.warn(`Stepwise: offline use is not available here (${error.message})`);
    return null;
  });
}
