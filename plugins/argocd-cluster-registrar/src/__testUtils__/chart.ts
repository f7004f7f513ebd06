/* deploy/helm/argocd-cluster-registrar rendered by devenv's helm (packages/devenv, ensureHelm). */
import path from 'node:path';
import { ensureHelm, parseManifests, runHelm } from '@internal/devenv';
import { REPO } from './image';

export const CHART = path.join('deploy', 'helm', 'argocd-cluster-registrar');
export const FIXTURES = path.join(__dirname, '..', '__fixtures__');

let helm: string | undefined;
export function helmBin(): string {
  helm ??= ensureHelm().bin;
  return helm;
}

export interface RenderOptions {
  release?: string;
  namespace?: string;
  /** Values files (`-f`), in order. */
  files?: string[];
  set?: Record<string, string>;
}

export function renderText(opts: RenderOptions = {}): string {
  return runHelm(
    helmBin(),
    [
      'template',
      opts.release ?? 'acr',
      CHART,
      '--namespace',
      opts.namespace ?? 'registrar',
      ...(opts.files ?? []).flatMap(f => ['-f', f]),
      ...Object.entries(opts.set ?? {}).flatMap(([k, v]) => [
        '--set',
        `${k}=${v}`,
      ]),
    ],
    REPO,
  );
}

export function render(opts: RenderOptions = {}): any[] {
  return parseManifests(renderText(opts)) as any[];
}

export const named = (o: any) =>
  `${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${
    o.metadata.name
  }`;

/** The registrar container's args in a render. */
export function containerArgs(objects: any[]): string[] {
  const deployment = objects.find(o => o.kind === 'Deployment');
  return deployment.spec.template.spec.containers[0].args;
}
