#!/usr/bin/env node
/*
 * The leak scan of `npm test` (issue 17): every token, client key, certificate and GIT_TOKEN the
 * tests used, looked for where none may be: the run's logs and reports, the pages' HTML, the
 * events of the local control plane's clusters and the gitops repositories' history.
 *
 * The credentials come from where the tests get them: the devenv state's kubeconfigs and PKI
 * files, the Secrets on its management cluster that registrations stored, ServiceAccount tokens
 * (JWTs issued by the devenv API servers) found anywhere, and the environment (GIT_TOKEN,
 * INFRARED_TOKEN). A hit is printed as where it is, the kind and a SHA-256 prefix of the value:
 * never the value.
 *
 *   node scripts/leak-scan.js --state <devenv state.json> [--text <file or dir>]... [--git <repo>]...
 *
 * Exits 1 when anything leaked, 2 when it could not scan.
 */
const { execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const https = require('node:https');
const path = require('node:path');

const ENV_SECRETS = ['GIT_TOKEN', 'GITHUB_TOKEN', 'INFRARED_TOKEN'];
/** Shorter values would match by chance. */
const MIN_LENGTH = 12;

const hash = value =>
  crypto.createHash('sha256').update(value).digest('hex').slice(0, 12);

/** A Map of value -> kind, ignoring values too short to mean anything. */
class SecretSet {
  constructor() {
    this.values = new Map();
  }
  add(kind, value) {
    if (typeof value !== 'string') return;
    const v = value.trim();
    if (v.length >= MIN_LENGTH && !this.values.has(v)) this.values.set(v, kind);
  }
  /** A PEM text or its base64: the text itself and each body line, which any echo keeps. */
  addPem(kind, pemOrBase64) {
    const text = /-----BEGIN/.test(pemOrBase64)
      ? pemOrBase64
      : Buffer.from(pemOrBase64, 'base64').toString('utf8');
    if (!/-----BEGIN/.test(text)) return;
    if (pemOrBase64 !== text) this.add(kind, pemOrBase64.replace(/\s+/g, ''));
    for (const line of text.split('\n')) {
      if (/^[A-Za-z0-9+/=]{40,}$/.test(line.trim()))
        this.add(kind, line.trim());
    }
  }
  /** A bearer token; for a JWT also its signature, which a truncated echo still shows. */
  addToken(kind, token) {
    this.add(kind, token);
    const parts = String(token ?? '').split('.');
    if (parts.length === 3 && parts[2].length >= 40) this.add(kind, parts[2]);
  }
}

const FIELD =
  /^\s*(token|client-key-data|client-certificate-data|certificate-authority-data):\s*(\S+)\s*$/;

/** Credentials of a kubeconfig's text (read line by line: no YAML parser needed for kubectl's shape). */
function fromKubeconfig(text, secrets) {
  for (const line of text.split('\n')) {
    const m = FIELD.exec(line);
    if (!m) continue;
    const value = m[2].replace(/^["']|["']$/g, '');
    if (m[1] === 'token') secrets.addToken('token', value);
    else if (m[1] === 'client-key-data') secrets.addPem('client key', value);
    else secrets.addPem('certificate', value);
  }
}

function walk(dir, out = []) {
  let entries = [];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'etcd' && e.name !== 'logs') walk(full, out);
    } else if (e.isFile()) out.push(full);
  }
  return out;
}

/** The devenv files: kubeconfigs, private keys and certificates. */
function fromStateFiles(state, stateFile, secrets) {
  const dirs = new Set(
    [state.baseDir, path.dirname(stateFile)].filter(Boolean),
  );
  for (const c of state.clusters ?? [])
    dirs.add(path.dirname(c.kubeconfigPath));
  for (const dir of dirs) {
    for (const file of walk(dir)) {
      if (fs.statSync(file).size > 1024 * 1024) continue;
      if (/kubeconfig$/.test(file))
        fromKubeconfig(fs.readFileSync(file, 'utf8'), secrets);
      else if (/\.key$/.test(file))
        secrets.addPem('private key', fs.readFileSync(file, 'utf8'));
      else if (/\.crt$/.test(file))
        secrets.addPem('certificate', fs.readFileSync(file, 'utf8'));
      else if (/\.token$/.test(file))
        secrets.addToken('token', fs.readFileSync(file, 'utf8'));
      // devenv's Argo CD: its accounts' API tokens, by account name
      else if (/argocd-tokens\.json$/.test(file))
        for (const t of Object.values(
          JSON.parse(fs.readFileSync(file, 'utf8')),
        ))
          secrets.addToken('Argo CD token', t);
    }
  }
}

/** GET on a devenv cluster with its admin kubeconfig (client certificate or token). */
function kubeGet(kubeconfigPath, urlPath) {
  const text = fs.readFileSync(kubeconfigPath, 'utf8');
  const field = name =>
    (new RegExp(`^\\s*${name}:\\s*(\\S+)`, 'm').exec(text) ?? [])[1];
  const b64 = name => field(name) && Buffer.from(field(name), 'base64');
  const server = new URL(field('server'));
  const token = field('token');
  return new Promise((resolve, reject) => {
    const req = https.get(
      {
        host: server.hostname,
        port: server.port,
        path: urlPath,
        ca: b64('certificate-authority-data'),
        cert: b64('client-certificate-data'),
        key: b64('client-key-data'),
        headers: token ? { authorization: `Bearer ${token}` } : {},
        timeout: 20_000,
      },
      res => {
        const chunks = [];
        res.on('data', c => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode === 200) resolve(body);
          else reject(new Error(`GET ${urlPath}: ${res.statusCode}`));
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`GET ${urlPath}: timeout`)));
    req.on('error', reject);
  });
}

/** What registrations and builds stored: kubeconfig, Argo CD cluster and credentials Secrets. */
async function fromStoredSecrets(management, secrets) {
  for (const ns of ['infrared', 'argocd']) {
    let list;
    try {
      list = JSON.parse(
        await kubeGet(management, `/api/v1/namespaces/${ns}/secrets`),
      );
    } catch {
      continue; // the namespace may not exist
    }
    for (const item of list.items ?? []) {
      for (const [key, value] of Object.entries(item.data ?? {})) {
        const text = Buffer.from(value, 'base64').toString('utf8');
        // a build's credentials Secret: each value is an environment variable's (GIT_TOKEN, ...)
        if (/^[A-Z][A-Z0-9_]*$/.test(key)) secrets.add(key, text);
        fromKubeconfig(text, secrets);
        if (/^\s*\{/.test(text)) fromArgoConfig(text, secrets);
      }
    }
  }
}

function fromArgoConfig(text, secrets) {
  try {
    const config = JSON.parse(text);
    secrets.addToken('token', config.bearerToken);
    const tls = config.tlsClientConfig ?? {};
    if (tls.keyData) secrets.addPem('client key', tls.keyData);
    if (tls.certData) secrets.addPem('certificate', tls.certData);
  } catch {
    /* not an Argo CD config */
  }
}

/** ServiceAccount tokens the devenv API servers issued, wherever they appear (shape + issuer). */
function serviceAccountTokens(text) {
  const found = [];
  for (const m of text.matchAll(
    /eyJ[A-Za-z0-9_-]{10,}\.(eyJ[A-Za-z0-9_-]{10,})\.[A-Za-z0-9_-]{20,}/g,
  )) {
    try {
      const claims = JSON.parse(
        Buffer.from(m[1], 'base64url').toString('utf8'),
      );
      if (/kubernetes/.test(String(claims.iss)) && claims.sub) found.push(m[0]);
    } catch {
      /* not a JWT */
    }
  }
  return found;
}

function textFiles(target) {
  if (!fs.existsSync(target)) return [];
  const files = fs.statSync(target).isDirectory() ? walk(target) : [target];
  return files.filter(f => !/\.(jpg|jpeg|png|gz|zip)$/i.test(f));
}

/** Every place to look in, as [name, text] (read lazily, one at a time). */
async function* places({ state, texts, gitRepos }) {
  for (const target of texts) {
    for (const file of textFiles(target)) {
      yield [path.relative(process.cwd(), file), fs.readFileSync(file, 'utf8')];
    }
  }
  for (const c of state?.clusters ?? []) {
    try {
      yield [
        `events on ${c.name}`,
        await kubeGet(c.kubeconfigPath, '/api/v1/events'),
      ];
    } catch (e) {
      throw new Error(`could not list the events on ${c.name}: ${e.message}`);
    }
  }
  for (const repo of gitRepos) {
    if (!fs.existsSync(repo)) continue;
    const log = execFileSync(
      'git',
      [`--git-dir=${repo}`, 'log', '-p', '--all', '--format=%H %s%n%b'],
      { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 },
    );
    yield [`git history of ${path.relative(process.cwd(), repo)}`, log];
  }
}

/**
 * Collects the credentials and looks for them in every place. Resolves with the counts and the
 * hits ({ place, kind, sha256 }); never with a secret's value.
 */
async function leakScan({
  stateFile,
  texts = [],
  gitRepos = [],
  secretFiles = [],
  env = process.env,
}) {
  const secrets = new SecretSet();
  const state =
    stateFile && fs.existsSync(stateFile)
      ? JSON.parse(fs.readFileSync(stateFile, 'utf8'))
      : undefined;
  if (state) {
    fromStateFiles(state, stateFile, secrets);
    const management = state.clusters?.find(c => c.name === 'management');
    if (management) await fromStoredSecrets(management.kubeconfigPath, secrets);
  }
  for (const name of ENV_SECRETS) secrets.add(name, env[name]);
  for (const file of secretFiles) {
    if (fs.existsSync(file))
      secrets.add('token', fs.readFileSync(file, 'utf8'));
  }
  const hits = [];
  let scanned = 0;
  for await (const [place, text] of places({ state, texts, gitRepos })) {
    scanned++;
    for (const [value, kind] of secrets.values) {
      if (text.includes(value)) hits.push({ place, kind, sha256: hash(value) });
    }
    for (const token of new Set(serviceAccountTokens(text))) {
      hits.push({ place, kind: 'ServiceAccount token', sha256: hash(token) });
    }
  }
  const kinds = {};
  for (const kind of secrets.values.values())
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  return { secrets: kinds, places: scanned, hits };
}

/** Runs the scan and prints its result; resolves with the exit status (0 clean, 1 leaks, 2 error). */
async function runLeakScan(options, log = console.log) {
  try {
    const { secrets, places: scanned, hits } = await leakScan(options);
    const counts = Object.entries(secrets)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ');
    log(
      `[leak-scan] looked for ${
        counts || 'no credentials'
      } in ${scanned} places`,
    );
    for (const h of hits)
      log(`[leak-scan] LEAK in ${h.place}: a ${h.kind} (sha256 ${h.sha256})`);
    log(`[leak-scan] ${hits.length} hits`);
    return hits.length ? 1 : 0;
  } catch (e) {
    log(`[leak-scan] could not scan: ${e.message}`);
    return 2;
  }
}

function parseArgs(argv) {
  const options = { texts: [], gitRepos: [] };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--state') options.stateFile = value;
    else if (flag === '--text') options.texts.push(value);
    else if (flag === '--git') options.gitRepos.push(value);
    else throw new Error(`unknown flag ${flag}`);
  }
  return options;
}

if (require.main === module) {
  runLeakScan(parseArgs(process.argv.slice(2))).then(code =>
    process.exit(code),
  );
}

module.exports = { leakScan, runLeakScan, SecretSet, serviceAccountTokens };
