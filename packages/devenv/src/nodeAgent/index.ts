import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import type { ClusterInfo } from '../controlPlane';
import { ensureTofu } from '../tofu';
import { NodeAgent } from './agent';
import type { ImageMapping } from './env';

export { NodeAgent } from './agent';
export type { NodeAgentOptions } from './agent';
export * from './env';
export * from './logs';

/**
 * The image mapping of devenv: `opentofu` images run the local tofu, with node on PATH and the
 * devenv binaries' cache in the environment.
 */
export function tofuImageMapping(tofuBin: string): ImageMapping {
  // the image's environment on this node: where devenv's binaries are, so that a module that
  // starts a cluster through devenv (the demo template) finds them instead of building them again
  const env: Record<string, string> = {
    XDG_CACHE_HOME:
      process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'),
  };
  for (const key of ['INFRARED_KUBE_ASSETS', 'KUBEBUILDER_ASSETS']) {
    if (process.env[key]) env[key] = process.env[key]!;
  }
  return {
    name: 'opentofu',
    path: [path.dirname(tofuBin), path.dirname(process.execPath)],
    entrypoint: ['tofu'],
    env,
  };
}

/**
 * Starts a node agent in this process for a cluster of the control plane (tests): the Node
 * `nodeName` takes the unscheduled Pods matching `selector` and runs `opentofu` images with the
 * local tofu (built on first use). `stop()` ends its processes and removes its Node.
 */
export async function startNodeAgent(options: {
  cluster: ClusterInfo;
  nodeName: string;
  selector?: string;
  dataDir?: string;
  log?: (m: string) => void;
}): Promise<{ agent: NodeAgent; tofu: string; stop(): Promise<void> }> {
  if (process.getuid?.() !== 0) {
    throw new Error(
      'devenv: the node agent runs Pods in a mount namespace of their own (unshare --mount) to give them their ServiceAccount token at /var/run/secrets/kubernetes.io/serviceaccount, which needs root',
    );
  }
  const tofu = ensureTofu({ log: options.log }).bin;
  const dataDir =
    options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'devenv-node-'));
  const agent = new NodeAgent({
    kubeconfig: options.cluster.kubeconfig,
    nodeName: options.nodeName,
    selector: options.selector,
    images: [tofuImageMapping(tofu)],
    dataDir,
    log: options.log ?? (() => undefined),
  });
  await agent.start();
  return {
    agent,
    tofu,
    async stop() {
      await agent.stop(true);
      if (!options.dataDir)
        fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
