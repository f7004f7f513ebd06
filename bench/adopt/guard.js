/*
 * Preloaded (NODE_OPTIONS=--require) into every Node process bench/adopt starts: create-app, yarn,
 * the backend. A host name other than loopback and the hosts in ADOPT_ALLOWED_HOSTS (the npm
 * registry) does not resolve, so nothing connects anywhere else; each refusal is appended to
 * ADOPT_REFUSED_LOG. Name resolution is where Node's net, http(s) and fetch (undici) all pass.
 */
const dns = require('node:dns');
const fs = require('node:fs');

const allowed = new Set(
  (process.env.ADOPT_ALLOWED_HOSTS ?? '').split(',').filter(Boolean),
);
const isLoopback = host =>
  host === 'localhost' ||
  host.endsWith('.localhost') ||
  host === '::1' ||
  /^127\./.test(host);

function refuse(host) {
  const error = new Error(
    `bench/adopt: no connection to ${host} (only loopback and the npm registry)`,
  );
  error.code = 'ENOTFOUND';
  error.hostname = host;
  if (process.env.ADOPT_REFUSED_LOG) {
    try {
      fs.appendFileSync(process.env.ADOPT_REFUSED_LOG, `${host}\n`);
    } catch {
      // the log is a report, not a condition
    }
  }
  return error;
}

const lookup = dns.lookup;
dns.lookup = function guardedLookup(hostname, ...rest) {
  const host = String(hostname ?? '');
  if (!host || isLoopback(host) || allowed.has(host)) {
    return lookup.call(this, hostname, ...rest);
  }
  const callback = rest[rest.length - 1];
  const error = refuse(host);
  process.nextTick(() => callback(error));
  return undefined;
};

const promisesLookup = dns.promises.lookup;
dns.promises.lookup = function guardedPromisesLookup(hostname, ...rest) {
  const host = String(hostname ?? '');
  if (!host || isLoopback(host) || allowed.has(host)) {
    return promisesLookup.call(this, hostname, ...rest);
  }
  return Promise.reject(refuse(host));
};
