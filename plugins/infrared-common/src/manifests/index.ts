export * from './secrets';
export * from './cluster';
export * from './argoSecretManager';
