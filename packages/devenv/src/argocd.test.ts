import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { componentArgs, repoServerEnv } from './argocdArgs';
import { argocdCacheDir, ensureArgoCd } from './argocdBinary';

describe('ensureArgoCd', () => {
  const saved = { ...process.env };
  let cache: string;
  beforeEach(() => {
    cache = fs.mkdtempSync(path.join(os.tmpdir(), 'argocd-cache-'));
    process.env.XDG_CACHE_HOME = cache;
    delete process.env.INFRARED_ARGOCD_BIN;
  });
  afterEach(() => {
    process.env = { ...saved };
    fs.rmSync(cache, { recursive: true, force: true });
  });

  const fakeBin = (dir: string, names: string[]) => {
    fs.mkdirSync(dir, { recursive: true });
    for (const n of names)
      fs.writeFileSync(path.join(dir, n), '#!/bin/sh\n', { mode: 0o755 });
  };
  const ALL = [
    'argocd',
    'argocd-server',
    'argocd-repo-server',
    'argocd-application-controller',
    'git-verify-wrapper.sh',
  ];

  it('fails at once, saying what to install, when Argo CD must be built and Go is missing', () => {
    process.env.PATH = path.join(cache, 'no-go-here');
    expect(() => ensureArgoCd()).toThrow(
      /Argo CD is not built and Go is not installed\. Install Go >= 1\.26 .* or set INFRARED_ARGOCD_BIN/,
    );
  });

  it('takes the cache, with every component name and the helper scripts, or INFRARED_ARGOCD_BIN', () => {
    const dir = path.join(argocdCacheDir(), 'bin');
    expect(dir).toBe(
      path.join(cache, 'infrared-devenv', 'argocd-v3.6.1', 'bin'),
    );
    fakeBin(dir, ALL);
    expect(ensureArgoCd()).toEqual({
      dir,
      server: path.join(dir, 'argocd-server'),
      repoServer: path.join(dir, 'argocd-repo-server'),
      applicationController: path.join(dir, 'argocd-application-controller'),
    });
    const partial = path.join(cache, 'partial');
    fakeBin(partial, ALL.slice(0, 4));
    process.env.INFRARED_ARGOCD_BIN = partial;
    expect(() => ensureArgoCd()).toThrow(/lacks .*git-verify-wrapper\.sh/);
  });
});

describe('Argo CD command lines', () => {
  const ports = {
    redisPort: 1001,
    repoPort: 1002,
    repoMetrics: 1003,
    apiPort: 1004,
    apiMetrics: 1005,
    ctlMetrics: 1006,
  };
  const args = componentArgs(ports, '/k/admin.kubeconfig', 'argocd', 10);
  const flag = (list: string[], name: string) => list[list.indexOf(name) + 1];

  it('listen on loopback only, where a flag exists for it', () => {
    expect(flag(args.server, '--address')).toBe('127.0.0.1');
    expect(flag(args.repoServer, '--address')).toBe('127.0.0.1');
    expect(flag(args.repoServer, '--metrics-address')).toBe('127.0.0.1');
    for (const list of Object.values(args)) {
      expect(flag(list, '--redis')).toBe('127.0.0.1:1001');
      expect(list.join(' ')).not.toMatch(/0\.0\.0\.0|localhost/);
    }
  });

  it('keep authentication on: argocd-server is --insecure (plain HTTP on loopback) but never --disable-auth', () => {
    expect(args.server).toContain('--insecure');
    expect(args.server).not.toContain('--disable-auth');
  });

  it('give the repo-server its cluster by KUBECONFIG, no TLS, GPG off and the helpers first on PATH', () => {
    expect(args.repoServer).not.toContain('--kubeconfig');
    expect(args.repoServer).toEqual(
      expect.arrayContaining(['--disable-tls', '--client-ca-path', '']),
    );
    const env = repoServerEnv(
      {
        dir: '/c/bin',
        server: '',
        repoServer: '',
        applicationController: '',
      },
      '/k/admin.kubeconfig',
      '/d',
    );
    expect(env).toMatchObject({
      KUBECONFIG: '/k/admin.kubeconfig',
      ARGOCD_GPG_ENABLED: 'false',
      ARGOCD_ASK_PASS_SOCK: '/d/ask-pass.sock',
    });
    expect(env.PATH!.split(':')[0]).toBe('/c/bin');
  });

  it('point the controller and the server at the repo-server in plaintext and the namespace', () => {
    for (const list of [args.applicationController, args.server]) {
      expect(flag(list, '--repo-server')).toBe('127.0.0.1:1002');
      expect(list).toContain('--repo-server-plaintext');
      expect(flag(list, '--kubeconfig')).toBe('/k/admin.kubeconfig');
      expect(flag(list, '--namespace')).toBe('argocd');
    }
    expect(flag(args.applicationController, '--app-resync')).toBe('10');
  });

  it('let a merge show at the next resync: no jitter, the commit cached no longer than the resync', () => {
    expect(flag(args.applicationController, '--app-resync-jitter')).toBe('0');
    expect(flag(args.repoServer, '--revision-cache-expiration')).toBe('10s');
  });
});
