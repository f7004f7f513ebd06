import type { RegistrarProvider } from './types';

/**
 * The provisioner shapes shipped as presets (upstream `registrar.go`).
 *
 * @public
 */
export const PROVIDER_PRESETS: Readonly<Record<string, RegistrarProvider>> = {
  k3k: {
    name: 'k3k',
    secretNamePattern: 'k3k-*-kubeconfig',
    keys: ['kubeconfig.yaml'],
    allowExec: false,
  },
  vcluster: {
    name: 'vcluster',
    secretNamePattern: 'vc-*',
    keys: ['config'],
    allowExec: false,
  },
  kamaji: {
    name: 'kamaji',
    secretNamePattern: '*-admin-kubeconfig',
    keys: ['admin.conf', 'admin.svc'],
    allowExec: false,
  },
  capi: {
    name: 'capi',
    secretNamePattern: '*-kubeconfig',
    keys: ['value'],
    allowExec: false,
    secretType: 'cluster.x-k8s.io/secret',
  },
  'capa-eks': {
    name: 'capa-eks',
    secretNamePattern: '*-user-kubeconfig',
    keys: ['value'],
    allowExec: true,
  },
  'capz-aks': {
    name: 'capz-aks',
    secretNamePattern: '*-kubeconfig-user',
    keys: ['value'],
    allowExec: true,
  },
};

/** @public */
export const PRESET_NAMES = Object.keys(PROVIDER_PRESETS).sort();
