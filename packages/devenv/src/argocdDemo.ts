import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { ARGOCD_PROCESS_PREFIX, startArgoCd } from './argocd';
import { bootstrapArgoCd } from './argocdBootstrap';
import { accepts } from './argocdTokens';
import type { ControlPlane } from './controlPlane';
import { isRunning, stopProcesses } from './processes';

/** `INFRARED_ARGOCD=off`: `devenv up` (and so `npm start`) runs no Argo CD. */
export const ARGOCD_ENV = 'INFRARED_ARGOCD';

/** argocd-server's preferred port in the demo (the git daemon takes the next one); INFRARED_ARGOCD_PORT changes it. */
export const DEMO_ARGOCD_PORT = 18080;

/** The file (mode 0600, in the demo's data folder) holding the Argo CD accounts' API tokens. */
export const ARGOCD_TOKENS_FILE = 'argocd-tokens.json';

/**
 * The demo's application-controller resync: the local repository changes only through this portal, and
 * a 10 s refresh keeps the demo close to it (a registered cluster Successful, a zone Healthy), where
 * production relies on a git webhook.
 */
const DEMO_RESYNC_SECONDS = 10;

/** How many processes startArgoCd starts with a git repository: redis, 3 components, git daemon. */
const PROCESSES = 5;

/** A plain value of app-config.local.yaml, else app-config.yaml (one with `${...}` is skipped). */
export function localConfigValue(
  repoRoot: string,
  keys: string[],
): string | undefined {
  for (const file of ['app-config.local.yaml', 'app-config.yaml']) {
    const full = path.join(repoRoot, file);
    if (!fs.existsSync(full)) continue;
    let value: any;
    try {
      value = YAML.parse(fs.readFileSync(full, 'utf8'));
    } catch {
      continue;
    }
    for (const k of keys) value = value?.[k];
    if (typeof value === 'string' && value && !value.includes('${'))
      return value;
  }
  return undefined;
}

function readTokens(file: string): Record<string, string> {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
}

export interface DemoArgoCd {
  url: string;
  gitUrl: string;
  /** True when the running Argo CD of the state was kept as it was. */
  reused: boolean;
  /** What the bootstrap applied (`Kind namespace/name`). */
  bootstrapped: string[];
}

/**
 * The demo's Argo CD (`devenv up` without --state): started beside the control plane as long-lived
 * processes recorded in the state (stopped by `devenv down`), or the running one reused when all its
 * processes run and argocd-server still takes the stored panel token. It serves the portal's gitops
 * repository (`infrared.gitops.path`, default .data/gitops.git) over the loopback git daemon, keeps
 * its data in `<dataDir>/argocd` and the accounts' tokens in `<dataDir>/argocd-tokens.json` (0600),
 * and is bootstrapped every run (bootstrapArgoCd: AppProjects and the root Application).
 */
export async function upDemoArgoCd(
  cp: ControlPlane,
  opts: {
    dataDir: string;
    repoRoot: string;
    log?: (m: string) => void;
    /** argocd-server's preferred port. Default INFRARED_ARGOCD_PORT, else 18080; 0: any free port. */
    basePort?: number;
    /** Tests: a watchdog stops this Argo CD when that process exits. */
    ownerPid?: number;
  },
): Promise<DemoArgoCd> {
  const log = opts.log ?? (() => {});
  const state = cp.state;
  const tokensFile = path.join(opts.dataDir, ARGOCD_TOKENS_FILE);
  const tokens = readTokens(tokensFile);
  const procs = state.processes.filter(p =>
    p.name.startsWith(ARGOCD_PROCESS_PREFIX),
  );
  const running = state.argocd;
  const reused =
    !!running &&
    procs.length === PROCESSES &&
    procs.every(isRunning) &&
    (await accepts(
      running.url,
      running.panelAccount,
      tokens[running.panelAccount],
    ).catch(() => false));
  if (!reused) {
    if (procs.length) log('Argo CD: stopping what is left of the last one');
    await stopProcesses(procs);
    state.processes = state.processes.filter(p => !procs.includes(p));
    const gitRepo = path.resolve(
      opts.repoRoot,
      localConfigValue(opts.repoRoot, ['infrared', 'gitops', 'path']) ??
        path.join('.data', 'gitops.git'),
    );
    const argo = await startArgoCd(cp, {
      gitRepo,
      dir: path.join(opts.dataDir, 'argocd'),
      basePort:
        opts.basePort ??
        Number(process.env.INFRARED_ARGOCD_PORT ?? DEMO_ARGOCD_PORT),
      tokens,
      resyncSeconds: DEMO_RESYNC_SECONDS,
      ownerPid: opts.ownerPid,
      log,
    });
    state.processes.push(...argo.processes);
    state.argocd = {
      url: argo.url,
      gitUrl: argo.gitUrl!,
      namespace: argo.namespace,
      account: argo.account,
      panelAccount: argo.panelAccount,
    };
    fs.writeFileSync(cp.statePath, JSON.stringify(state, null, 2));
    fs.writeFileSync(
      tokensFile,
      JSON.stringify({
        [argo.account]: argo.token,
        [argo.panelAccount]: argo.panelToken,
      }),
      { mode: 0o600 },
    );
  }
  const { url, gitUrl } = state.argocd!;
  const applied = await bootstrapArgoCd(cp, {
    repoUrl: gitUrl,
    managementCluster:
      localConfigValue(opts.repoRoot, [
        'infrared',
        'managementCluster',
        'name',
      ]) ?? 'infrared-mgmt',
  });
  return { url, gitUrl, reused, bootstrapped: applied.map(a => a.object) };
}

/** Stops the demo's Argo CD when its state records one (INFRARED_ARGOCD=off); true when it did. */
export async function downDemoArgoCd(cp: ControlPlane): Promise<boolean> {
  const state = cp.state;
  const procs = state.processes.filter(p =>
    p.name.startsWith(ARGOCD_PROCESS_PREFIX),
  );
  if (!procs.length && !state.argocd) return false;
  await stopProcesses(procs);
  state.processes = state.processes.filter(p => !procs.includes(p));
  delete state.argocd;
  fs.writeFileSync(cp.statePath, JSON.stringify(state, null, 2));
  return true;
}
