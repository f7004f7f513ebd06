import {
  eventually,
  getTestControlPlane,
  uniqueName,
  type KubeClient as DevenvClient,
} from '@internal/devenv';
import { kubeConfigFromText } from '@infrared-clusters/infrared-kube';
import { main } from './command';
import { LiveChildren } from './__testUtils__/liveChildren';
import { spawn } from 'node:child_process';
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

jest.setTimeout(180_000);

const P = 'argocd-cluster-registrar/';
const REPO = path.resolve(__dirname, '../../..');
const cp = getTestControlPlane();
const management = cp.cluster('management');
const workload = cp.cluster('workload-a');
const admin: DevenvClient = cp.client('management');
const b64 = (s: string) => Buffer.from(s).toString('base64');

const children = new LiveChildren(admin);
const createNamespace = children.createNamespace.bind(children);
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'registrar-cli-'));
});

afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  await children.cleanUp();
});

/** The command as a user types it, from the repository root; bounded in time. */
function npxRegistrar(
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 60_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'npx',
      ['--no-install', 'infrared-registrar', ...args],
      {
        cwd: REPO,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', d => (stdout += d));
    child.stderr.on('data', d => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', e => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', code => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The environment of a shell on a developer's machine: no in-cluster service account, KUBECONFIG set. */
function shellEnv(kubeconfigPath: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.KUBERNETES_SERVICE_HOST;
  delete env.KUBERNETES_SERVICE_PORT;
  delete env.NODE_OPTIONS;
  env.KUBECONFIG = kubeconfigPath;
  env.PATH = `${path.dirname(process.execPath)}${path.delimiter}${
    env.PATH ?? ''
  }`;
  return env;
}

describe('npx infrared-registrar --once on a real control plane', () => {
  it('registers a labelled namespace with a kubeconfig Secret as an Argo CD cluster Secret and exits 0', async () => {
    const managedBy = uniqueName('cli');
    const target = uniqueName('argocd');
    const ns = uniqueName('k3k');
    const cluster = uniqueName('child');
    await createNamespace(target, {});
    await createNamespace(ns, {
      [`${P}managed-by`]: managedBy,
      [`${P}cluster`]: cluster,
      [`${P}flux`]: 'true',
    });
    await admin.must('POST', `/api/v1/namespaces/${ns}/secrets`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `k3k-${cluster}-kubeconfig`, namespace: ns },
      data: { 'kubeconfig.yaml': b64(workload.kubeconfig) },
    });
    const kubeconfigPath = path.join(dir, 'management.kubeconfig');
    fs.writeFileSync(kubeconfigPath, management.kubeconfig, { mode: 0o600 });

    // With the flags upstream's chart renders besides: --once takes no Lease and serves nothing.
    const run = await npxRegistrar(
      [
        '--once',
        `--target-namespace=${target}`,
        `--managed-by=${managedBy}`,
        '--interval=60s',
        '--demoted-ttl=0s',
        '--leader-elect',
        '--health-probe-bind-address=',
        '--metrics-bind-address=0',
      ],
      shellEnv(kubeconfigPath),
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('level=INFO msg="registered cluster"');

    const secret = await admin.must(
      'GET',
      `/api/v1/namespaces/${target}/secrets/cluster-${cluster}`,
    );
    expect(secret.body.metadata.labels).toEqual({
      'argocd.argoproj.io/secret-type': 'cluster',
      [`${P}managed-by`]: managedBy,
      [`${P}cluster`]: cluster,
      [`${P}source-namespace`]: ns,
      [`${P}source-namespace-uid`]: expect.any(String),
      [`${P}provider`]: 'k3k',
      [`${P}flux`]: 'true',
    });
    const data = secret.body.data as Record<string, string>;
    const text = (k: string) => Buffer.from(data[k], 'base64').toString();
    expect(text('name')).toBe(cluster);
    expect(text('server')).toBe(workload.server);

    // A second run finds nothing to do and still exits 0.
    const again = await npxRegistrar(
      ['--once', '-t', target, '--managed-by', managedBy],
      shellEnv(kubeconfigPath),
    );
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain('registered cluster');
  });

  it('exits 1 with a message on stderr when a flag is bad, before touching the cluster', async () => {
    const run = await npxRegistrar(
      ['--once', '--label-prefix', 'nope'],
      shellEnv(path.join(dir, 'absent.kubeconfig')),
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('--label-prefix: "nope" must end in \'/\'');
  });
});

/** A message as slog's text format writes it. */
const slog = (msg: string) => (/\s/.test(msg) ? JSON.stringify(msg) : msg);

/** The CLI in this process until `stop()`: its stdout lines, its exit code. */
function startRegistrar(
  argv: string[],
  identity: string,
  kubeconfig = management.kubeconfig,
) {
  const out: string[] = [];
  const controller = new AbortController();
  const done = main(argv, {
    stdout: t =>
      out.push(
        ...t
          .split('\n')
          .filter(Boolean)
          .map(l => `${l} `),
      ),
    stderr: t => out.push(`stderr: ${t}`),
    kubeConfig: kubeConfigFromText(kubeconfig),
    signal: controller.signal,
    lease: { identity, retryPeriodMs: 200 },
  });
  return {
    out,
    said: (msg: string) => out.some(l => l.includes(`msg=${slog(msg)} `)),
    count: (msg: string) =>
      out.filter(l => l.includes(`msg=${slog(msg)} `)).length,
    addr: (msg: string) =>
      /addr=(\S+)/.exec(
        out.find(l => l.includes(`msg=${slog(msg)} `)) ?? '',
      )?.[1],
    stop: () => {
      controller.abort();
      return done;
    },
  };
}

async function httpGet(address: string, urlPath: string) {
  const res = await fetch(`http://${address}${urlPath}`, {
    signal: AbortSignal.timeout(5_000),
  });
  return { status: res.status, body: await res.text() };
}

/** `node <file> args` in `cwd`, bounded in time. */
function plainNode(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, ...args], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', d => (stdout += d));
    child.stderr.on('data', d => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', e => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', code => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('infrared-registrar from its built output', () => {
  it('runs with plain node from bin/ and dist/ alone: no sources, no node_modules, no TypeScript transform', async () => {
    const pkg = path.resolve(__dirname, '..');
    const built = await plainNode(
      path.join(pkg, 'bin', 'build-registrar.js'),
      [],
      { ...process.env, NODE_OPTIONS: '' },
      pkg,
    );
    expect(built.code).toBe(0);
    // What a container image would ship: the package's bin/, its dist/registrar/ and package.json.
    const copy = path.join(dir, 'package');
    fs.mkdirSync(path.join(copy, 'dist'), { recursive: true });
    fs.cpSync(path.join(pkg, 'bin'), path.join(copy, 'bin'), {
      recursive: true,
    });
    fs.cpSync(
      path.join(pkg, 'dist', 'registrar'),
      path.join(copy, 'dist', 'registrar'),
      { recursive: true },
    );
    fs.copyFileSync(
      path.join(pkg, 'package.json'),
      path.join(copy, 'package.json'),
    );
    const kubeconfigPath = path.join(dir, 'built.kubeconfig');
    fs.writeFileSync(kubeconfigPath, management.kubeconfig, { mode: 0o600 });
    const env = shellEnv(kubeconfigPath);
    const bin = path.join(copy, 'bin', 'infrared-registrar.js');

    const version = await plainNode(bin, ['--version'], env, copy);
    expect(version).toEqual({
      code: 0,
      stdout: `infrared-registrar version ${
        JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8'))
          .version
      }\n`,
      stderr: '',
    });

    const target = uniqueName('argocd');
    await createNamespace(target, {});
    const once = await plainNode(
      bin,
      ['--once', '--dry-run', '-t', target, '--managed-by', uniqueName('none')],
      env,
      copy,
    );
    expect(once.stderr).toBe('');
    expect(once.code).toBe(0);
    expect(once.stdout).toContain(
      `level=INFO msg=starting server=${management.server}`,
    );
  });
});

describe('infrared-registrar without --once on a real control plane', () => {
  it('passes every interval while holding the Lease, serves /healthz, /readyz and metrics; a second instance waits and takes over when the first stops', async () => {
    const managedBy = uniqueName('ctl');
    const target = uniqueName('argocd');
    const lease = uniqueName('acr');
    await createNamespace(target, {});
    const argv = [
      '--interval=1s',
      `--target-namespace=${target}`,
      `--managed-by=${managedBy}`,
      '--leader-elect',
      `--leader-election-id=${lease}`,
    ];
    const leaseHolder = async () =>
      (
        await admin.request(
          'GET',
          `/apis/coordination.k8s.io/v1/namespaces/${target}/leases/${lease}`,
        )
      ).body?.spec?.holderIdentity;

    const a = startRegistrar(
      [
        ...argv,
        '--health-probe-bind-address=127.0.0.1:0',
        '--metrics-bind-address=127.0.0.1:0',
      ],
      'instance-a',
    );
    let b: ReturnType<typeof startRegistrar> | undefined;
    try {
      await eventually(
        async () => a.said('successfully acquired lease'),
        30_000,
        100,
      );
      expect(await leaseHolder()).toBe('instance-a');
      b = startRegistrar(
        [...argv, '--health-probe-bind-address=', '--metrics-bind-address=0'],
        'instance-b',
      );
      await eventually(
        async () => b!.said('another instance holds the lease; waiting'),
        30_000,
        100,
      );

      const health = a.addr('serving health probes')!;
      expect(await httpGet(health, '/healthz')).toEqual({
        status: 200,
        body: 'ok',
      });
      expect(await httpGet(health, '/readyz')).toEqual({
        status: 200,
        body: 'ok',
      });
      const scrape = await httpGet(a.addr('serving metrics')!, '/metrics');
      expect(scrape.status).toBe(200);
      expect(scrape.body).toContain(
        'argocd_cluster_registrar_conflicts_total{reason="not_managed"} 0\n',
      );

      // A child that appears after the start is registered by a later pass.
      const cluster = await children.addChild(
        managedBy,
        workload.kubeconfig,
        'late',
      );
      await children.registered(target, cluster, 200);
      expect(
        a.out.filter(l => l.includes('msg="registered cluster"')),
      ).toHaveLength(1);
      // The waiting instance has made no pass.
      expect(b!.said('registered cluster')).toBe(false);
      expect(b!.said('successfully acquired lease')).toBe(false);

      // The first stops cleanly and gives the Lease up; the second takes it without waiting it out.
      expect(await a.stop()).toBe(0);
      expect(a.said('stopped')).toBe(true);
      await eventually(
        async () => b!.said('successfully acquired lease'),
        30_000,
        100,
      );
      expect(await leaseHolder()).toBe('instance-b');
    } finally {
      await a.stop();
      expect(await b?.stop()).toBe(0);
    }
    expect(await leaseHolder()).toBe('');
  });
});

/** A loopback TCP proxy to the management API server whose connections the test can cut. */
async function cuttableProxy() {
  const upstream = new URL(management.server);
  const sockets = new Set<net.Socket>();
  const server = net.createServer(client => {
    const up = net.connect(Number(upstream.port), upstream.hostname);
    sockets.add(client);
    sockets.add(up);
    client.pipe(up).pipe(client);
    const close = () => {
      client.destroy();
      up.destroy();
      sockets.delete(client);
      sockets.delete(up);
    };
    client.on('error', close).on('close', close);
    up.on('error', close).on('close', close);
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    kubeconfig: management.kubeconfig.replace(
      management.server,
      `https://127.0.0.1:${port}`,
    ),
    cut: () => {
      for (const s of sockets) s.destroy();
    },
    close: () =>
      new Promise<void>(resolve => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('infrared-registrar is watch-driven', () => {
  it('registers a child created after the start without waiting for the interval, and recovers from a dropped watch with a resync pass', async () => {
    const managedBy = uniqueName('watch');
    const target = uniqueName('argocd');
    await createNamespace(target, {});
    const proxy = await cuttableProxy();
    // An interval no test waits out: only the watches can bring these children in.
    const r = startRegistrar(
      [
        '--interval=1h',
        '--debug',
        `--target-namespace=${target}`,
        `--managed-by=${managedBy}`,
        '--health-probe-bind-address=',
      ],
      'watcher',
      proxy.kubeconfig,
    );
    let n = 0;
    const child = async () => {
      n++;
      const cluster = await children.addChild(
        managedBy,
        workload.kubeconfig.replace(
          workload.server,
          `https://192.0.2.${n}:6443`,
        ),
        'w',
      );
      await children.registered(target, cluster);
    };
    try {
      await eventually(
        async () => r.said('registrar pass completed'),
        30_000,
        100,
      );
      await child();
      expect(r.said('change seen; passing')).toBe(true);

      const passes = r.count('registrar pass completed');
      proxy.cut();
      await eventually(
        async () => r.said('watch dropped; resyncing'),
        30_000,
        100,
      );
      // The drop itself brings a pass: whatever changed while it was down is read.
      await eventually(
        async () => r.count('registrar pass completed') > passes,
        30_000,
        100,
      );
      await child();
    } finally {
      expect(await r.stop()).toBe(0);
      await proxy.close();
    }
    // (A pass in flight when the connections were cut may fail, and says so; none refused a child.)
    expect(r.said('refused to register cluster')).toBe(false);
  });
});
