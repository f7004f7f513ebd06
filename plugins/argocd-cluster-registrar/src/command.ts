import packageJson from '../package.json';

/** The name and version `--help`, `--version` and the error lines answer to. */
export const COMMAND = {
  name: 'argocd-cluster-registrar',
  version: packageJson.version,
};
