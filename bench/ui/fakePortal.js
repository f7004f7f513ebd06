/*
 * A fake portal for the UI bench and for trying the browser tests without a control plane: serves
 * the built app (bench/ui/build.js) and a fake Infrared API on one port. Requests are validated
 * with -common's validateRegisterClusterRequest (the API's own rules); a registered cluster turns
 * Connected, then Registered, after short delays. Permission checks answer ALLOW (FAKE_DENY=1: DENY).
 * With `options.infrared` (a request handler), /api/infrared/* goes to it instead of the fake.
 */
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

require('../runTs').registerTransform();
const common = require('../../plugins/infrared-common/src/index.ts');

const MGMT = 'infrared-mgmt';
const TYPES = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.html': 'text/html',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

const condition = (type, status, reason, message, at) => ({
  type,
  status,
  reason,
  message,
  lastTransitionTime: at,
  observedGeneration: 1,
});

function registeredView(name, i, at) {
  const providers = ['aws', 'gcp', 'linode', 'local'];
  return {
    name,
    type: 'workload',
    flavor: i % 3 ? 'k3s' : 'eks',
    provider: providers[i % 4],
    region: ['us-east-1', 'eu-west-1', 'ap-south-1'][i % 3],
    connection: 'kubeconfig',
    conditions: [
      condition(
        'Connected',
        'True',
        'Connected',
        `Reached v1.31.${i % 10} with ${1 + (i % 7)} nodes`,
        at,
      ),
      condition(
        'Registered',
        'True',
        'Merged',
        `Merged pull request #${i + 1}`,
        at,
      ),
    ],
    kubernetesVersion: `v1.31.${i % 10}`,
    nodes: 1 + (i % 7),
    argoSecret: `cluster-${name}`,
    argoServer: `https://10.${(i >> 8) & 255}.${i & 255}.1:6443`,
    gitopsPath: `registry/clusters/${MGMT}/components/cluster-${name}.yaml`,
    pullRequest: {
      url: `https://github.com/acme/gitops/pull/${i + 1}`,
      number: i + 1,
      merged: true,
    },
    createdAt: at,
  };
}

/** n clusters: the management cluster, workload clusters (a few unreachable), a few discovered. */
function generateClusters(n) {
  const at = new Date(Date.now() - 86_400_000).toISOString();
  const items = [
    {
      name: MGMT,
      type: 'management',
      provider: 'local',
      connection: 'inCluster',
      conditions: [
        condition('Connected', 'True', 'Connected', 'Reached v1.37.2', at),
        condition(
          'Registered',
          'True',
          'InCluster',
          'Argo CD uses its in-cluster destination',
          at,
        ),
      ],
      kubernetesVersion: 'v1.37.2',
      nodes: 1,
      argoServer: common.IN_CLUSTER_SERVER,
      createdAt: at,
    },
  ];
  for (let i = 1; i < n; i++) {
    const name = `edge-${String(i).padStart(4, '0')}`;
    const view = registeredView(name, i, at);
    if (i % 97 === 0) {
      view.conditions = [
        condition(
          'Connected',
          'False',
          'Unreachable',
          `dial tcp ${view.argoServer}: i/o timeout`,
          at,
        ),
        condition(
          'Registered',
          'Unknown',
          'WaitingForConnected',
          'Registered waits for Connected',
          at,
        ),
      ];
    }
    if (i % 50 === 0) view.discovered = { sourceNamespace: `team-${i % 7}` };
    items.push(view);
  }
  return items;
}

/** What the auth backend's guest provider answers: an (unsigned, fake) Backstage token for the guest. */
function guestSession() {
  const b64 = o => Buffer.from(JSON.stringify(o)).toString('base64url');
  const userEntityRef = 'user:development/guest';
  const token = `${b64({ alg: 'none', typ: 'vnd.backstage.user' })}.${b64({
    sub: userEntityRef,
    ent: [userEntityRef],
    exp: Math.floor(Date.now() / 1000) + 3600,
  })}.fake`;
  return {
    profile: { displayName: 'Guest' },
    providerInfo: {},
    backstageIdentity: {
      token,
      identity: {
        type: 'user',
        userEntityRef,
        ownershipEntityRefs: [userEntityRef],
      },
    },
  };
}

function send(res, status, body) {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(text);
}

function error(res, status, name, message, errors) {
  send(res, status, {
    error: { name, message, ...(errors ? { errors } : {}) },
    ...(errors ? { errors } : {}),
  });
}

async function readBody(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

function createFakePortal(options = {}) {
  const distDir = options.distDir;
  const delays = { connected: 1200, registered: 1500, ...options.delays };
  const state = {
    clusters: options.clusters ?? generateClusters(1),
    requests: 0,
  };
  const timers = new Set();
  const later = (ms, fn) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  const find = name => state.clusters.find(c => c.name === name);

  function register(value, inspection) {
    const now = () => new Date().toISOString();
    const created = {
      name: value.name,
      type: 'workload',
      ...(value.flavor ? { flavor: value.flavor } : {}),
      ...(value.provider ? { provider: value.provider } : {}),
      ...(value.region ? { region: value.region } : {}),
      ...(value.server ? { server: value.server } : {}),
      connection: value.inCluster ? 'inCluster' : 'kubeconfig',
      conditions: [],
      createdAt: now(),
    };
    state.clusters.push(created);
    later(delays.connected, () => {
      const c = find(value.name);
      if (!c) return;
      c.kubernetesVersion = 'v1.37.2';
      c.nodes = 2;
      c.conditions = [
        condition(
          'Connected',
          'True',
          'Connected',
          'Reached v1.37.2 with 2 nodes',
          now(),
        ),
      ];
      later(delays.registered, () => {
        const d = find(value.name);
        if (!d) return;
        if (!value.inCluster) d.argoSecret = common.argoSecretName(value.name);
        d.argoServer = value.inCluster
          ? common.IN_CLUSTER_SERVER
          : value.server ?? inspection.server;
        d.gitopsPath = `registry/clusters/${MGMT}/components/cluster-${value.name}.yaml`;
        d.pullRequest = {
          url: `file:///fake/gitops#0123456789ab`,
          commit: '0123456789abcdef',
          merged: true,
        };
        d.conditions = [
          d.conditions[0],
          condition(
            'Registered',
            'True',
            'Merged',
            'Merged into main as 0123456789ab',
            now(),
          ),
        ];
      });
    });
    return created;
  }

  async function api(req, res, url) {
    state.requests++;
    const p = url.pathname;
    if (p === '/api/permission/authorize' && req.method === 'POST') {
      const body = await readBody(req);
      const result = process.env.FAKE_DENY === '1' ? 'DENY' : 'ALLOW';
      return send(res, 200, {
        items: body.items.map(i => ({ id: i.id, result })),
      });
    }
    if (p === '/api/auth/guest/refresh') return send(res, 200, guestSession());
    if (p === '/api/infrared/health') return send(res, 200, { status: 'ok' });
    // Placement: no Organization and no Product zone (the Clusters page reads both once).
    if (p === '/api/infrared/v1/orgs' && req.method === 'GET') {
      return send(res, 200, { items: [] });
    }
    if (p === '/api/infrared/v1/zones' && req.method === 'GET') {
      return send(res, 200, { items: [] });
    }
    if (p === '/api/infrared/v1/clusters' && req.method === 'GET') {
      // the backend's own reading of the query: filters, sort, pages (no org here: no Organization)
      const read = common.readClusterListParams(
        Object.fromEntries(url.searchParams),
      );
      if (read.errors) {
        return error(
          res,
          400,
          'InputError',
          read.errors[0].message,
          read.errors,
        );
      }
      const { org, ...params } = read.params;
      return send(
        res,
        200,
        common.pageClusters(state.clusters, {
          ...params,
          ...(org ? { names: new Set() } : {}),
        }),
      );
    }
    if (p === '/api/infrared/v1/clusters' && req.method === 'POST') {
      const body = await readBody(req);
      const result = common.validateRegisterClusterRequest(body);
      if (result.errors) {
        return error(
          res,
          400,
          'InputError',
          result.errors.map(e => `${e.field}: ${e.message}`).join('; '),
          result.errors,
        );
      }
      if (find(result.value.name)) {
        return error(
          res,
          409,
          'ConflictError',
          `cluster "${result.value.name}" already exists`,
        );
      }
      return send(res, 201, register(result.value, result.kubeconfig));
    }
    const one = p.match(/^\/api\/infrared\/v1\/clusters\/([^/]+)$/);
    if (one) {
      const name = decodeURIComponent(one[1]);
      const cluster = find(name);
      if (!cluster)
        return error(res, 404, 'NotFoundError', `no cluster "${name}"`);
      if (req.method === 'GET') return send(res, 200, cluster);
      if (req.method === 'DELETE') {
        if (cluster.type === 'management') {
          return error(
            res,
            409,
            'ConflictError',
            'the management cluster cannot be removed',
          );
        }
        state.clusters = state.clusters.filter(c => c !== cluster);
        // the real answer (issue 22.7): this fake has no zones or allowlists
        return send(res, 200, {
          name,
          zones: [],
          allowlists: [],
          message: `Cluster ${name} removed. No zone names cluster ${name}.`,
        });
      }
    }
    return error(
      res,
      404,
      'NotFoundError',
      `the fake portal does not serve ${req.method} ${p}`,
    );
  }

  function file(res, url) {
    const rel = decodeURIComponent(url.pathname).replace(/^\/+/, '');
    let target = path.join(distDir, rel);
    if (
      !target.startsWith(distDir) ||
      !fs.existsSync(target) ||
      fs.statSync(target).isDirectory()
    ) {
      target = path.join(distDir, 'index.html');
    }
    const headers = {
      'content-type': TYPES[path.extname(target)] ?? 'application/octet-stream',
    };
    if (/\/static\//.test(target))
      headers['cache-control'] = 'public, max-age=31536000, immutable';
    res.writeHead(200, headers);
    fs.createReadStream(target).pipe(res);
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    // a real Infrared API (bench/ui/scale.ts: the plugin's router over a control plane) if given
    if (options.infrared && url.pathname.startsWith('/api/infrared/')) {
      options.infrared(req, res);
      return;
    }
    const handle = url.pathname.startsWith('/api/')
      ? api(req, res, url)
      : Promise.resolve(file(res, url));
    handle.catch(e => {
      if (!res.headersSent) error(res, 500, 'Error', String(e?.message ?? e));
    });
  });

  return new Promise(resolve => {
    server.listen(options.port ?? 17000, '127.0.0.1', () => {
      resolve({
        url: `http://localhost:${server.address().port}`,
        state,
        close: () =>
          new Promise(done => {
            for (const t of timers) clearTimeout(t);
            server.closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
}

module.exports = { createFakePortal, generateClusters };

if (require.main === module) {
  const { distDir } = require('./build');
  const n = Number(process.env.FAKE_CLUSTERS ?? 1);
  createFakePortal({ distDir, clusters: generateClusters(n) }).then(p =>
    console.log(
      `fake portal with ${n} clusters at ${p.url}/clusters (Ctrl-C stops it)`,
    ),
  );
}
