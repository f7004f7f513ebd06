import {
  getTestControlPlane,
  uniqueName,
  type KubeClient as DevenvClient,
} from '@internal/devenv';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

jest.setTimeout(180_000);

const P = 'argocd-cluster-registrar/';
const REPO = path.resolve(__dirname, '../../../..');
const cp = getTestControlPlane();
const management = cp.cluster('management');
const workload = cp.cluster('workload-a');
const admin: DevenvClient = cp.client('management');
const b64 = (s: string) => Buffer.from(s).toString('base64');

const created: string[] = [];
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'registrar-cli-'));
});

afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  await Promise.all(
    created.map(ns =>
      admin
        .request('DELETE', `/api/v1/namespaces/${ns}`)
        .catch(() => undefined),
    ),
  );
});

async function createNamespace(name: string, labels: Record<string, string>) {
  created.push(name);
  await admin.must('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels },
  });
}

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
