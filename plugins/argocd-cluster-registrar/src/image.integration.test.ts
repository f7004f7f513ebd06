/*
 * The registrar as an adopter installs it, on the shared devenv management cluster:
 *  - the package packed as npm packs it (with infrared-registrar, infrared-kube and
 *    plugin-infrared-common), installed by the Dockerfile's own npm command, run with plain node:
 *    its bin, `npx`, and the Dockerfile's exact ENTRYPOINT with the args the chart renders;
 *  - moving from upstream: over cluster Secrets in upstream's exact shape, the first pass makes no
 *    write request (counted by a loopback proxy), run as the chart's ServiceAccount with the
 *    chart's RBAC applied for real; later passes create, update and delete under that RBAC;
 *  - the command as the chart's Deployment runs it (Lease, probes, metrics, watches) under that RBAC.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  eventually,
  getTestControlPlane,
  serverSideApply,
  uniqueName,
} from '@internal/devenv';
import { containerArgs, FIXTURES, render } from './__testUtils__/chart';
import { countingProxy, tokenKubeconfig } from './__testUtils__/countingProxy';
import {
  installAsTheImage,
  packTarballs,
  PACKAGE_DIR,
  plainEnv,
  readDockerfile,
  run,
  runEntrypoint,
  type Dockerfile,
} from './__testUtils__/image';
import {
  createChild,
  kubeconfigFacts,
  P,
  tokenChildKubeconfig,
  upstreamClusterSecret,
  type Child,
} from './__testUtils__/upstream';

jest.setTimeout(600_000); // packing and installing take about a minute

const cp = getTestControlPlane();
const management = cp.cluster('management');
const workload = cp.cluster('workload-a');
const admin = cp.client('management');
const VERSION = JSON.parse(
  fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8'),
).version;

let work: string;
let dockerfile: Dockerfile;
/** The install, standing for the image's WORKDIR. */
let image: string;
let adminKubeconfig: string;
const namespaces: string[] = [];
const clusterScoped: string[] = [];

async function createNamespace(name: string) {
  namespaces.push(name);
  await admin.must('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name },
  });
}

async function child(managedBy: string, c: Child) {
  namespaces.push(c.namespace);
  return createChild(admin, managedBy, c);
}

const secretPath = (ns: string, name: string) =>
  `/api/v1/namespaces/${ns}/secrets/${name}`;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'acr-image-'));
  dockerfile = readDockerfile();
  const tarballs = packTarballs(work);
  image = path.join(work, 'image', dockerfile.workdir);
  installAsTheImage(dockerfile, tarballs, image);
  adminKubeconfig = path.join(work, 'admin.kubeconfig');
  fs.writeFileSync(adminKubeconfig, management.kubeconfig, { mode: 0o600 });
});

afterAll(async () => {
  for (const ns of namespaces)
    await admin.must('DELETE', `/api/v1/namespaces/${ns}`, undefined, [404]);
  for (const p of clusterScoped)
    await admin.must('DELETE', p, undefined, [404]);
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('the packed package, installed as the Dockerfile installs it', () => {
  it('is the published form: dist/ and bin/, no sources; --version and --help from node_modules/.bin with plain node', async () => {
    const installed = path.join(
      image,
      'node_modules',
      '@infrared-clusters',
      'argocd-cluster-registrar',
    );
    // npm packs the README whatever `files` says
    expect(fs.readdirSync(installed).sort()).toEqual([
      'README.md',
      'bin',
      'dist',
      'package.json',
    ]);
    const bin = path.join(
      image,
      'node_modules',
      '.bin',
      'argocd-cluster-registrar',
    );
    const env = plainEnv();
    expect(
      await run(process.execPath, [bin, '--version'], { cwd: image, env }),
    ).toEqual({
      code: 0,
      stdout: `argocd-cluster-registrar version ${VERSION}\n`,
      stderr: '',
    });
    const help = await run(process.execPath, [bin, '--help'], {
      cwd: image,
      env,
    });
    expect(help.code).toBe(0);
    expect(help.stdout.split('\n')[0]).toBe(
      'usage: argocd-cluster-registrar [--once] [--dry-run] [--debug] [flags]',
    );
    expect(help.stderr).toBe('');
  });

  it('npx @infrared-clusters/argocd-cluster-registrar --once --dry-run writes nothing; --once registers', async () => {
    const managedBy = uniqueName('npx');
    const target = uniqueName('argocd');
    await createNamespace(target);
    const k3k: Child = {
      namespace: uniqueName('k3k'),
      cluster: uniqueName('npx'),
      provider: 'k3k',
      kubeconfig: workload.kubeconfig,
    };
    await child(managedBy, k3k);
    const npx = (args: string[]) =>
      run('npx', ['@infrared-clusters/argocd-cluster-registrar', ...args], {
        cwd: image,
        env: plainEnv({ KUBECONFIG: adminKubeconfig }),
      });
    const flags = ['-t', target, '--managed-by', managedBy];

    const dry = await npx(['--once', '--dry-run', ...flags]);
    expect(dry.stderr).toBe('');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(
      `level=INFO msg=starting server=${management.server}`,
    );
    expect(dry.stdout).toContain('[dry-run]');
    expect(
      (await admin.request('GET', secretPath(target, `cluster-${k3k.cluster}`)))
        .status,
    ).toBe(404);

    const once = await npx(['--once', ...flags]);
    expect(once.code).toBe(0);
    expect(once.stdout).toContain('msg="registered cluster"');
    const secret = await admin.must(
      'GET',
      secretPath(target, `cluster-${k3k.cluster}`),
    );
    expect(secret.body.metadata.labels).toMatchObject({
      'argocd.argoproj.io/secret-type': 'cluster',
      [`${P}managed-by`]: managedBy,
      [`${P}provider`]: 'k3k',
    });
  });
});

describe('the image (Dockerfile)', () => {
  it("starts from a Node.js image of a major the project runs on, as a non-root user, and its ENTRYPOINT is plain node running the package's bin", () => {
    const engines = JSON.parse(
      fs.readFileSync(
        path.join(PACKAGE_DIR, '..', '..', 'package.json'),
        'utf8',
      ),
    ).engines.node as string;
    const major = /^node:(\d+)[-.]/.exec(dockerfile.from)?.[1];
    expect(engines.split('||').map(s => s.trim())).toContain(major);
    expect(
      fs.readFileSync(path.join(PACKAGE_DIR, 'Dockerfile'), 'utf8'),
    ).toMatch(/^USER 65532:65532$/m);
    expect(dockerfile.entrypoint[0]).toBe('node');
  });

  it('its exact ENTRYPOINT runs from the install: --version, and a pass with the args the chart renders', async () => {
    const env = plainEnv({ KUBECONFIG: adminKubeconfig });
    expect(await runEntrypoint(dockerfile, image, ['--version'], env)).toEqual({
      code: 0,
      stdout: `argocd-cluster-registrar version ${VERSION}\n`,
      stderr: '',
    });
    const target = uniqueName('argocd');
    await createNamespace(target);
    const args = containerArgs(
      render({
        files: [path.join(FIXTURES, 'upstream-values.yaml')],
        set: { targetNamespace: target, managedBy: uniqueName('entry') },
      }),
    );
    const pass = await runEntrypoint(
      dockerfile,
      image,
      [...args, '--once', '--dry-run'],
      env,
    );
    expect(pass.stderr).toBe('');
    expect(pass.code).toBe(0);
    expect(pass.stdout).toContain(
      `msg=starting server=${management.server} targetNamespace=${target}`,
    );
    expect(pass.stdout).toContain('providers=k3k,vcluster,mytool,eks');
  });
});

/** Applies the chart's RBAC for `release` for real; the ServiceAccount's token. */
async function chartIdentity(release: string, namespace: string, args: object) {
  const objects = render({ release, namespace, ...args }).filter(o =>
    /^(ServiceAccount|ClusterRole|ClusterRoleBinding|Role|RoleBinding)$/.test(
      o.kind,
    ),
  );
  await serverSideApply(management, objects);
  for (const o of objects.filter(x => /^ClusterRole/.test(x.kind))) {
    const plural =
      o.kind === 'ClusterRole' ? 'clusterroles' : 'clusterrolebindings';
    clusterScoped.push(
      `/apis/rbac.authorization.k8s.io/v1/${plural}/${o.metadata.name}`,
    );
  }
  const account = objects.find(o => o.kind === 'ServiceAccount').metadata.name;
  const token = await admin.must(
    'POST',
    `/api/v1/namespaces/${namespace}/serviceaccounts/${account}/token`,
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: 3600 },
    },
  );
  return token.body.status.token as string;
}

function caOf(kubeconfig: string): string {
  return Buffer.from(kubeconfigFacts(kubeconfig).caData, 'base64').toString();
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>(r => server.close(() => r()));
  return port;
}

describe('moving from upstream', () => {
  it("the first pass over upstream's cluster Secrets makes no write request; later passes create, update and delete under the chart's RBAC", async () => {
    const release = uniqueName('acr');
    const releaseNs = uniqueName('acr-sys');
    const target = uniqueName('argocd');
    const managedBy = uniqueName('upstream');
    await createNamespace(releaseNs);
    await createNamespace(target);
    const values = {
      files: [path.join(FIXTURES, 'upstream-values.yaml')],
      set: { targetNamespace: target, managedBy },
    };
    const token = await chartIdentity(release, releaseNs, values);
    const args = containerArgs(
      render({ release, namespace: releaseNs, ...values }),
    );

    const workloadFacts = kubeconfigFacts(workload.kubeconfig);
    const children: Child[] = [
      {
        namespace: uniqueName('k3k-a'),
        cluster: uniqueName('a'),
        provider: 'k3k',
        kubeconfig: workload.kubeconfig,
        labels: { [`${P}flux`]: 'true', team: 'payments' },
      },
      {
        namespace: uniqueName('vc-b'),
        cluster: uniqueName('b'),
        provider: 'vcluster',
        kubeconfig: tokenChildKubeconfig({
          ...workloadFacts,
          server: 'https://192.0.2.7:8443',
          token: 'child-b-token',
        }),
      },
    ];
    for (const c of children) {
      const uid = await child(managedBy, c);
      await admin.must(
        'POST',
        `/api/v1/namespaces/${target}/secrets`,
        upstreamClusterSecret(target, managedBy, c, uid),
      );
    }
    // a cluster registered by hand: not ours, never touched
    await admin.must('POST', `/api/v1/namespaces/${target}/secrets`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'cluster-by-hand',
        labels: { 'argocd.argoproj.io/secret-type': 'cluster' },
      },
      stringData: {
        name: 'by-hand',
        server: 'https://192.0.2.99:6443',
        config: '{}',
      },
    });
    const versions = async () =>
      (
        await admin.must('GET', `/api/v1/namespaces/${target}/secrets`)
      ).body.items.map(
        (s: any) => `${s.metadata.name}@${s.metadata.resourceVersion}`,
      );
    const before = await versions();

    const proxy = await countingProxy(
      management.server,
      caOf(management.kubeconfig),
    );
    try {
      const kubeconfig = path.join(work, `${release}.kubeconfig`);
      fs.writeFileSync(kubeconfig, tokenKubeconfig(proxy.url, token), {
        mode: 0o600,
      });
      const env = plainEnv({ KUBECONFIG: kubeconfig });
      const pass = () =>
        runEntrypoint(dockerfile, image, [...args, '--once'], env);

      const first = await pass();
      expect(first).toMatchObject({ code: 0, stderr: '' });
      expect(proxy.writes()).toEqual([]);
      expect(proxy.seen.length).toBeGreaterThanOrEqual(2);
      expect(first.stdout).not.toMatch(
        /forbidden|registered cluster|updated cluster/i,
      );
      expect(await versions()).toEqual(before);

      // Then the usual life of children, under the chart's Role: one update, one create, one delete.
      const [a, b] = children;
      await admin.must(
        'PATCH',
        `/api/v1/namespaces/${b.namespace}`,
        { metadata: { labels: { [`${P}flux`]: 'true' } } },
        undefined,
        'application/merge-patch+json',
      );
      const c: Child = {
        namespace: uniqueName('k3k-c'),
        cluster: uniqueName('c'),
        provider: 'k3k',
        kubeconfig: workload.kubeconfig.replace(
          workload.server,
          'https://192.0.2.8:6443',
        ),
      };
      await child(managedBy, c);
      await admin.must('DELETE', `/api/v1/namespaces/${a.namespace}`);
      await eventually(
        async () =>
          (
            await admin.request('GET', `/api/v1/namespaces/${a.namespace}`)
          ).status === 404,
        120_000,
        250,
      );
      const seen = proxy.seen.length;
      const second = await pass();
      expect(second).toMatchObject({ code: 0, stderr: '' });
      expect(second.stdout).not.toMatch(/forbidden/i);
      expect(proxy.writes()).toEqual([
        `DELETE /api/v1/namespaces/${target}/secrets/cluster-${a.cluster}`,
        `PUT /api/v1/namespaces/${target}/secrets/cluster-${b.cluster}`,
        `POST /api/v1/namespaces/${target}/secrets`,
      ]);
      expect(proxy.seen.length).toBeGreaterThan(seen);
      const names = (await versions())
        .map((v: string) => v.split('@')[0])
        .sort();
      expect(names).toEqual(
        [
          'cluster-by-hand',
          `cluster-${b.cluster}`,
          `cluster-${c.cluster}`,
        ].sort(),
      );
    } finally {
      await proxy.close();
    }
  });
});

describe("the image's command as the chart's Deployment runs it", () => {
  it("holds the Lease, serves the probes and metrics, and registers a new child from its watches, under the chart's RBAC; SIGTERM gives the Lease up", async () => {
    const release = uniqueName('acr');
    const releaseNs = uniqueName('acr-sys');
    const target = uniqueName('argocd');
    const managedBy = uniqueName('ctl');
    await createNamespace(releaseNs);
    await createNamespace(target);
    const [probes, metrics] = [await freePort(), await freePort()];
    const values = {
      files: [path.join(FIXTURES, 'upstream-values.yaml')],
      set: {
        targetNamespace: target,
        managedBy,
        interval: '1h', // only the watches can register the child in time
        'probes.bindAddress': `127.0.0.1:${probes}`,
        'metrics.bindAddress': `127.0.0.1:${metrics}`,
      },
    };
    const token = await chartIdentity(release, releaseNs, values);
    const args = containerArgs(
      render({ release, namespace: releaseNs, ...values }),
    );
    const lease = args
      .find(a => a.startsWith('--leader-election-id='))!
      .split('=')[1];
    const kubeconfig = path.join(work, `${release}.kubeconfig`);
    fs.writeFileSync(
      kubeconfig,
      tokenKubeconfig(management.server, token).replace(
        'insecure-skip-tls-verify: true',
        `certificate-authority-data: ${
          kubeconfigFacts(management.kubeconfig).caData
        }`,
      ),
      { mode: 0o600 },
    );
    const [program, ...rest] = dockerfile.entrypoint;
    expect(program).toBe('node');
    const proc = spawn(process.execPath, [...rest, ...args], {
      cwd: image,
      env: plainEnv({ KUBECONFIG: kubeconfig }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout.on('data', d => (out += d));
    proc.stderr.on('data', d => (out += `stderr: ${d}`));
    const exited = new Promise<number | null>(r => proc.on('close', r));
    const get = (port: number, p: string) =>
      fetch(`http://127.0.0.1:${port}${p}`, {
        signal: AbortSignal.timeout(5000),
      });
    try {
      await eventually(
        async () => out.includes('successfully acquired lease'),
        60_000,
        100,
      );
      await eventually(
        async () => out.includes('registrar pass completed'),
        60_000,
        100,
      );
      expect((await get(probes, '/healthz')).status).toBe(200);
      expect((await get(probes, '/readyz')).status).toBe(200);
      expect(await (await get(metrics, '/metrics')).text()).toContain(
        'argocd_cluster_registrar_conflicts_total{reason="not_managed"} 0',
      );
      const late: Child = {
        namespace: uniqueName('k3k-late'),
        cluster: uniqueName('late'),
        provider: 'k3k',
        kubeconfig: workload.kubeconfig,
      };
      await child(managedBy, late);
      await eventually(
        async () =>
          (
            await admin.request(
              'GET',
              secretPath(target, `cluster-${late.cluster}`),
            )
          ).status === 200,
        30_000,
        100,
      );
      const held = await admin.must(
        'GET',
        `/apis/coordination.k8s.io/v1/namespaces/${target}/leases/${lease}`,
      );
      expect(held.body.spec.holderIdentity).toBeTruthy();
    } finally {
      proc.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(out).not.toMatch(/forbidden|stderr:/i);
    const released = await admin.must(
      'GET',
      `/apis/coordination.k8s.io/v1/namespaces/${target}/leases/${lease}`,
    );
    expect(released.body.spec.holderIdentity ?? '').toBe('');
  });
});
