// How the browser tests and the scripts that drive a page start Debian's Chromium (never a
// downloaded browser; docs/toolchain.md): headless, without the sandbox a container lacks, and
// with the background networking off, which otherwise keeps trying to reach the network. No other
// import, so a script can read these without starting a test runner or loading Playwright.
export const chromiumArgs = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic',
];
