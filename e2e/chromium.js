/*
 * How the project starts Debian's Chromium (browser tests and the UI bench): headless, and with the
 * background networking off, which this machine's closed network would otherwise refuse many times over.
 */
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

module.exports = { CHROMIUM_FLAGS };
