import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ConfigSources, FileConfigSource } from '@backstage/config-loader';

/** What reached the fake Argo CD. */
export interface ArgoRequest {
  method: string;
  path: string;
  authorization?: string;
}

/**
 * A loopback stand-in for Argo CD's API server that records every request reaching it and answers
 * 200 to all (so a request that should never arrive is seen, not hidden behind a 404).
 */
export async function startFakeArgoCd(): Promise<{
  url: string;
  requests: ArgoRequest[];
  stop: () => Promise<void>;
}> {
  const requests: ArgoRequest[] = [];
  const server = http.createServer((req, res) => {
    requests.push({
      method: req.method ?? '',
      path: req.url ?? '',
      authorization: req.headers.authorization,
    });
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ items: [] }));
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    stop: () =>
      new Promise<void>(resolve => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const PRODUCTION_CONFIG = path.resolve(
  __dirname,
  '../../../../../app-config.production.yaml',
);

/**
 * The `proxy` section of app-config.production.yaml as Backstage reads it (`${...}` substituted
 * from `env`): the Argo CD endpoint the test runs is the one shipped.
 */
export async function productionProxyConfig(
  env: Record<string, string>,
): Promise<Record<string, unknown>> {
  if (!fs.existsSync(PRODUCTION_CONFIG)) {
    throw new Error(`no ${PRODUCTION_CONFIG}`);
  }
  const source = FileConfigSource.create({
    path: PRODUCTION_CONFIG,
    watch: false,
    substitutionFunc: async name => env[name],
  });
  const config = await ConfigSources.toConfig(source);
  const proxy = config
    .getOptionalConfig('proxy')
    ?.get<Record<string, unknown>>();
  config.close();
  if (!proxy)
    throw new Error('app-config.production.yaml has no proxy section');
  return proxy;
}
