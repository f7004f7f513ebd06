/*
 * The portal's view of the demo environment, as a config file `npm start` hands the portal with
 * `--config` (.data/devenv/app-config.devenv.yaml, mode 0600). `devenv up` rewrites it on every
 * run, so when Argo CD starts after the portal (built in the background by `devenv prepare`), the
 * running backend reads the new file (Backstage watches its config files) and the proxy endpoint
 * for Argo CD's clusters API takes effect without a restart.
 */
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { ARGOCD_ENV, ARGOCD_TOKENS_FILE, DEMO_ARGOCD_PORT } from './argocdDemo';
import { PREPARE_STATUS_FILE } from './prepare';

export const PORTAL_CONFIG_FILE = 'app-config.devenv.yaml';

interface DemoState {
  argocd?: { url: string; gitUrl?: string; panelAccount: string };
}

function readJson(file: string): any {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The config: the OpenTofu runner's status file always; with Argo CD running, the URL it clones the
 * gitops repository by and the proxy endpoint's target and token; while Argo CD is still being built,
 * the git URL its git daemon will serve (the port after argocd-server's), so what the portal writes
 * meanwhile already names it.
 */
export function portalConfig(
  dataDir: string,
  opts: { gitRepoName: string; env?: NodeJS.ProcessEnv },
): Record<string, any> {
  const env = opts.env ?? process.env;
  const state: DemoState | undefined = readJson(
    path.join(dataDir, 'state.json'),
  );
  const tokens = readJson(path.join(dataDir, ARGOCD_TOKENS_FILE)) ?? {};
  const infrared: Record<string, any> = {
    provisioning: {
      runnerStatusFile: path.join(dataDir, PREPARE_STATUS_FILE),
    },
  };
  const config: Record<string, any> = { infrared };
  if (env[ARGOCD_ENV] === 'off') return config;
  const argo = state?.argocd;
  const token = argo && tokens[argo.panelAccount];
  if (argo?.gitUrl && token) {
    infrared.gitops = { argocdRepoUrl: argo.gitUrl };
    config.proxy = {
      endpoints: {
        '/argocd/api/v1/clusters': {
          target: `${argo.url}/api/v1/clusters`,
          headers: { Authorization: `Bearer ${token}` },
        },
      },
    };
  } else {
    const port = Number(env.INFRARED_ARGOCD_PORT ?? DEMO_ARGOCD_PORT) + 1;
    infrared.gitops = {
      argocdRepoUrl: `git://127.0.0.1:${port}/${opts.gitRepoName}`,
    };
  }
  return config;
}

/** Writes the file when its content changed (an unchanged file does not wake the backend). */
export function writePortalConfig(
  dataDir: string,
  opts: { gitRepoName: string; env?: NodeJS.ProcessEnv },
): string {
  const file = path.join(dataDir, PORTAL_CONFIG_FILE);
  const text = `# Written by devenv up on every run: the demo environment as the portal sees it. Do not edit.\n${YAML.stringify(
    portalConfig(dataDir, opts),
  )}`;
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  if (current !== text) {
    fs.writeFileSync(`${file}.tmp`, text, { mode: 0o600 });
    fs.renameSync(`${file}.tmp`, file);
  }
  return file;
}
