import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { findRepoRoot, KubeClient } from '@infrared-clusters/infrared-kube';
import { ensureBinaries } from './binaries';
import {
  ClusterInfo,
  ControlPlane,
  isHealthy,
  openControlPlane,
  startControlPlane,
  stopControlPlane,
} from './controlPlane';
import { demoSetup } from './cliDemo';
import { ensureNamespace, installCrds } from './helpers';
import { NodeAgent, tofuImageMapping } from './nodeAgent';
import { isRunning, rssBytes, startProcess } from './processes';
import { ensureTofu, tofuCacheDir } from './tofu';
import { ensureHelm } from './helm';
import { ensureArgoCd } from './argocdBinary';
import { ARGOCD_TOKENS_FILE, localConfigValue } from './argocdDemo';
import { PREPARE_STATUS_FILE, runPrepare } from './prepare';
import { ensurePreparing } from './prepareStart';
import { writePortalConfig } from './portalConfig';
import {
  DEPLOY_VALUES,
  deployManifests,
  renderChart,
  writeDeployManifests,
} from './chart';

const USAGE = `usage: devenv <up|down|status|build|tofu|helm|argocd|chart|node-agent|prepare> [--state <file>] [--clusters a,b] [--owner-pid <pid>]

  up          start etcd + kube-apiservers (+ kube-controller-manager on the first cluster), detached;
              the demo environment also starts a node agent on management when tofu is built
  down        stop them by PID
  status      say whether they run (exit 0 up, 1 unhealthy, 3 not running)
  build       only find or build the binaries
  tofu        find or build tofu (from Go modules, once)
  helm        find or build helm (from Go modules, once)
  argocd      find or build Argo CD (argocd-server, -repo-server, -application-controller; Go modules, once)
  chart       render deploy/helm/infrared-clusters into deploy/crds and deploy/rbac (with helm)
  prepare     build what the demo lacks (tofu, Argo CD) with progress in .data/devenv/prepare.json,
              running \`devenv up\` after each; \`devenv up\` starts it in the background
  node-agent  run a node agent in the foreground on --cluster (default the first) of the control
              plane (--name, default devenv-node; --selector <labels> of the Pods it takes; --data-dir)

Without --state: the demo environment (clusters management and edge-demo, and on management the
k3k-style child cluster sandbox for the registrar) under <repo>/.data/devenv/, with Argo CD on
management serving .data/gitops.git (built in the background on first use; INFRARED_ARGOCD=off: no Argo CD).
With --state <file>: an ephemeral test control plane (management, workload-a) recorded in <file>.`;

function parseArgs(argv: string[]) {
  const [cmd, ...rest] = argv;
  const flags: Record<string, string> = {};
  for (let i = 0; i < rest.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(rest[i]);
    if (!m) throw new Error(`unknown argument ${rest[i]}\n${USAGE}`);
    flags[m[1]] = m[2] ?? rest[++i];
  }
  return { cmd, flags };
}

const say = (m: string): void => {
  process.stdout.write(`${m}\n`);
};

async function up(flags: Record<string, string>) {
  const demo = !flags.state;
  const dataDir = demo
    ? path.join(findRepoRoot(), '.data', 'devenv')
    : undefined;
  const statePath = path.resolve(
    flags.state ?? path.join(dataDir!, 'state.json'),
  );
  if (fs.existsSync(statePath)) {
    if (await isHealthy(statePath)) {
      say(`devenv: already up (${statePath})`);
      const cp = openControlPlane(statePath);
      await installProjectCrds(cp.clusters[0]);
      if (demo) await demoSetup(cp, dataDir!, findRepoRoot(), say);
      if (demo) await demoNodeAgent(cp, statePath, dataDir!);
      if (demo) demoBackground(cp, statePath, dataDir!);
      printClusters(statePath, dataDir);
      return;
    }
    say('devenv: found a stale state file; stopping what is left of it');
    await stopControlPlane(statePath);
  }
  const clusters =
    flags.clusters?.split(',') ??
    (demo ? ['management', 'edge-demo'] : ['management', 'workload-a']);
  const started = Date.now();
  const cp = await startControlPlane({
    clusters,
    dataDir,
    statePath,
    basePort: demo
      ? Number(process.env.INFRARED_DEVENV_PORT ?? 16443)
      : undefined,
    ownerPid: flags['owner-pid'] ? Number(flags['owner-pid']) : undefined,
    log: m => say(`devenv: ${m}`),
  });
  await installProjectCrds(cp.clusters[0]);
  if (demo) await demoSetup(cp, dataDir!, findRepoRoot(), say);
  if (demo) await demoNodeAgent(cp, statePath, dataDir!);
  if (demo) demoBackground(cp, statePath, dataDir!);
  say(
    `devenv: up in ${((Date.now() - started) / 1000).toFixed(
      1,
    )}s (state ${statePath})`,
  );
  printClusters(statePath, dataDir);
}

/**
 * What the demo builds in the background (`devenv prepare`, started when tofu or Argo CD is missing)
 * and the portal's config file naming what runs now (portalConfig.ts).
 */
function demoBackground(cp: ControlPlane, statePath: string, dataDir: string) {
  ensurePreparing(cp, statePath, dataDir, say);
  const gitRepo =
    localConfigValue(findRepoRoot(), ['infrared', 'gitops', 'path']) ??
    'gitops.git';
  writePortalConfig(dataDir, { gitRepoName: path.basename(gitRepo) });
}

/** `devenv prepare`: the demo's missing builds, then `devenv up` again after each one. */
async function prepare(statePath: string) {
  const dataDir = path.dirname(statePath);
  const ok = await runPrepare({
    statusFile: path.join(dataDir, PREPARE_STATUS_FILE),
    log: path.join(dataDir, 'logs', 'prepare.log'),
    afterBuild: () => up({}),
    say,
  });
  if (!ok) process.exitCode = 1;
}

/**
 * The demo's node agent: runs the OpenTofu Jobs of clusters built from the portal as local
 * processes. Started detached (recorded in the state, stopped by `down`) when tofu is built; else
 * says how to build it.
 */
async function demoNodeAgent(
  cp: ControlPlane,
  statePath: string,
  dataDir: string,
) {
  await installTofuRbac(cp.clusters[0]);
  const state = cp.state;
  if (state.processes.some(p => p.name === 'node-agent' && isRunning(p)))
    return;
  const tofu = path.join(tofuCacheDir(), 'bin', 'tofu');
  if (!process.env.INFRARED_TOFU && !fs.existsSync(tofu)) {
    say(
      'devenv: no node agent yet: tofu is not built (devenv prepare builds it in the background and then starts the agent). Until then, Clusters built with OpenTofu wait for their Jobs.',
    );
    return;
  }
  if (process.getuid?.() !== 0) {
    say('devenv: no node agent: it needs root (a mount namespace per Pod)');
    return;
  }
  // eslint-disable-next-line no-restricted-syntax -- this package runs from source, it is never bundled
  const cli = path.resolve(__dirname, '..', 'bin', 'devenv.js');
  const agent = startProcess(
    'node-agent',
    process.execPath,
    [
      cli,
      'node-agent',
      '--state',
      statePath,
      '--data-dir',
      path.join(dataDir, 'node-agent'),
    ],
    path.join(state.baseDir, 'logs', 'node-agent.log'),
  );
  state.processes.push(agent);
  fs.writeFileSync(statePath, JSON.stringify(state, null, 2));
  say(
    `devenv: node agent devenv-node started on ${cp.clusters[0].name} (log ${agent.log})`,
  );
}

/**
 * The OpenTofu Jobs' namespace (infrared-tofu, Pod Security `restricted`) and the backend's Role
 * there, as deploy/rbac/50-tofu.yaml ships them (created when missing, the namespace's labels and
 * the Role's rules set): the demo's Jobs run there, each as its Cluster's own ServiceAccount the
 * backend makes.
 */
async function installTofuRbac(management: ClusterInfo) {
  const file = path.join(findRepoRoot(), 'deploy', 'rbac', '50-tofu.yaml');
  if (!fs.existsSync(file)) return;
  const client = KubeClient.fromKubeconfig(management.kubeconfig);
  const collections: Record<string, string> = {
    ServiceAccount: '/api/v1/namespaces/{ns}/serviceaccounts',
    Role: '/apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/roles',
    RoleBinding:
      '/apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/rolebindings',
  };
  for (const doc of YAML.parseAllDocuments(fs.readFileSync(file, 'utf8'))) {
    const obj = doc.toJSON();
    if (obj?.kind === 'Namespace') {
      const made = await client.createIfAbsent('/api/v1/namespaces', obj);
      if (made.status === 409)
        await client.must(
          'PATCH',
          `/api/v1/namespaces/${obj.metadata.name}`,
          { metadata: { labels: obj.metadata.labels } },
          [],
          'application/merge-patch+json',
        );
      continue;
    }
    const collection = obj && collections[obj.kind];
    if (!collection) continue;
    await ensureNamespace(management, obj.metadata.namespace);
    const at = collection.replace('{ns}', obj.metadata.namespace);
    const made = await client.createIfAbsent(at, obj);
    // a Role made by an earlier checkout gets the rules this one ships (e.g. watch on jobs, pods)
    if (made.status === 409 && obj.kind === 'Role')
      await client.must(
        'PATCH',
        `${at}/${obj.metadata.name}`,
        { rules: obj.rules },
        [],
        'application/merge-patch+json',
      );
  }
}

/** `devenv node-agent`: a node agent in the foreground, until SIGTERM. */
async function nodeAgent(statePath: string, flags: Record<string, string>) {
  const cp = openControlPlane(statePath);
  const cluster = flags.cluster ? cp.cluster(flags.cluster) : cp.clusters[0];
  const tofu = ensureTofu({ log: say }).bin;
  await ensureNamespace(cluster, 'kube-node-lease');
  const agent = new NodeAgent({
    kubeconfig: cluster.kubeconfig,
    nodeName: flags.name ?? 'devenv-node',
    selector: flags.selector,
    images: [tofuImageMapping(tofu)],
    dataDir: path.resolve(
      flags['data-dir'] ?? path.join(cp.state.baseDir, 'node-agent'),
    ),
    log: say,
  });
  await agent.start();
  await new Promise<void>(resolve => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await agent.stop();
}

/** The project's CRDs (deploy/crds) on the management cluster, current with the checkout. */
async function installProjectCrds(management: ClusterInfo) {
  const dir = path.join(findRepoRoot(), 'deploy', 'crds');
  if (!fs.existsSync(dir)) return;
  const names = await installCrds(management, dir);
  say(`devenv: CRDs served on ${management.name}: ${names.join(', ')}`);
}

/** `devenv chart`: deploy/crds and deploy/rbac written from the chart's render. */
function renderDeployManifests() {
  const root = findRepoRoot();
  const render = renderChart(ensureHelm({ log: say }).bin, root, {
    set: DEPLOY_VALUES,
    includeCrds: true,
  });
  const changed = writeDeployManifests(root, deployManifests(render));
  say(
    `devenv: deploy/crds and deploy/rbac rendered from the chart; ${
      changed.length ? `changed ${changed.join(', ')}` : 'no change'
    }`,
  );
}

function printClusters(statePath: string, dataDir?: string) {
  const cp = openControlPlane(statePath);
  for (const c of cp.clusters) {
    const kc = dataDir
      ? path.join(dataDir, `${c.name}.kubeconfig`)
      : c.kubeconfigPath;
    say(`  ${c.name.padEnd(12)} ${c.server}  kubeconfig: ${kc}`);
  }
  const argo = cp.state.argocd;
  if (argo && dataDir)
    say(
      `  ${'argocd'.padEnd(12)} ${argo.url}  git: ${
        argo.gitUrl
      }  tokens: ${path.join(dataDir, ARGOCD_TOKENS_FILE)}`,
    );
  say(`  stop with: devenv down${dataDir ? '' : ` --state ${statePath}`}`);
}

async function main(argv: string[]): Promise<void> {
  const { cmd, flags } = parseArgs(argv);
  const statePath = path.resolve(
    flags.state ?? path.join(findRepoRoot(), '.data', 'devenv', 'state.json'),
  );
  switch (cmd) {
    case 'up':
      return up(flags);
    case 'down':
      if (!fs.existsSync(statePath)) return say('devenv: not running');
      await stopControlPlane(statePath);
      return say('devenv: stopped');
    case 'status': {
      if (!fs.existsSync(statePath)) {
        process.exitCode = 3; // LSB: program is not running
        return say('devenv: not running');
      }
      const healthy = await isHealthy(statePath);
      say(
        `devenv: ${
          healthy ? 'up and healthy' : 'NOT healthy (run devenv down, then up)'
        }`,
      );
      say(
        `  rss ${(
          rssBytes(openControlPlane(statePath).state.processes) /
          2 ** 20
        ).toFixed(0)} MiB`,
      );
      printClusters(
        statePath,
        flags.state ? undefined : path.dirname(statePath),
      );
      if (!healthy) process.exitCode = 1;
      return undefined;
    }
    case 'build':
      return say(`devenv: binaries in ${ensureBinaries().dir}`);
    case 'tofu':
      return say(`devenv: tofu at ${ensureTofu({ log: say }).bin}`);
    case 'helm':
      return say(`devenv: helm at ${ensureHelm({ log: say }).bin}`);
    case 'argocd':
      return say(`devenv: Argo CD in ${ensureArgoCd({ log: say }).dir}`);
    case 'chart':
      return renderDeployManifests();
    case 'node-agent':
      return nodeAgent(statePath, flags);
    case 'prepare':
      return prepare(statePath);
    default:
      say(USAGE);
      process.exitCode = cmd ? 2 : 0;
      return undefined;
  }
}

/** Runs the CLI; errors end the process with exit code 1 and one message. */
export function run(argv: string[]): Promise<void> {
  return main(argv).catch(e => {
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  });
}

if (require.main === module) run(process.argv.slice(2));
