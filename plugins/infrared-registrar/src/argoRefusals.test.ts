import { parse, stringify } from 'yaml';
import { runRegistrarPass } from './executor';
import { RegistrarMetrics } from './metrics';
import {
  k3kSecret,
  kubeconfig,
  NOW,
  ns,
  options,
} from './__testUtils__/fixtures';
import { captureLogger, recordingMeter } from './__testUtils__/recorders';
import { MemoryRegistrarApi } from './testUtils/memoryRegistrarApi';

/** A k3k-style kubeconfig whose cluster entry also has `extra`. */
function kubeconfigWith(extra: Record<string, unknown>): string {
  const doc = parse(kubeconfig({ token: 'child-token' }));
  Object.assign(doc.clusters[0].cluster, extra);
  return stringify(doc);
}

async function pass(api: MemoryRegistrarApi) {
  const log = captureLogger();
  const report = await runRegistrarPass(api, options(), {
    logger: log.logger,
    metrics: new RegistrarMetrics(recordingMeter().meter),
    now: () => NOW,
  });
  return { report, log };
}

/**
 * Children whose kubeconfig Argo CD (client-go) would refuse get no Argo CD Secret, and a warning
 * that says why; their neighbours still register.
 */
describe('registrar: kubeconfigs Argo CD refuses', () => {
  it.each([
    [
      'insecure-skip-tls-verify together with a CA',
      { 'insecure-skip-tls-verify': true },
      /insecure-skip-tls-verify: true together with certificate-authority-data is refused by Argo CD.*"specifying a root certificates file with the insecure flag is not allowed"/,
    ],
    [
      'a socks5h proxy-url',
      { 'proxy-url': 'socks5h://10.0.0.9:1080' },
      /proxy-url "socks5h:\/\/10.0.0.9:1080" uses scheme socks5h, which Argo CD \(and kubectl, client-go\) refuse/,
    ],
  ])(
    'writes no Argo CD Secret for a child with %s, and logs why',
    async (_what, extra, reason) => {
      const api = new MemoryRegistrarApi();
      api.addNamespace(ns('refused'));
      api.addSecret(k3kSecret('refused', 'refused', kubeconfigWith(extra)));
      api.addNamespace(ns('fine'));
      api.addSecret(k3kSecret('fine', 'fine'));

      const { report, log } = await pass(api);

      expect(api.secret('argocd', 'cluster-refused')).toBeUndefined();
      expect(api.secret('argocd', 'cluster-fine')).toBeDefined();
      expect(report).toMatchObject({ created: 1, errors: [] });
      const warning = log.lines.find(
        l => l.level === 'warn' && l.fields.namespace === 'refused',
      );
      expect(warning).toMatchObject({
        message: 'no usable kubeconfig; skipping',
        fields: { cluster: 'refused', errors: expect.stringMatching(reason) },
      });
    },
  );

  it('keeps the Argo CD Secret it wrote before when the kubeconfig turns to one Argo CD refuses, and says why', async () => {
    const api = new MemoryRegistrarApi();
    api.addNamespace(ns('edge'));
    api.addSecret(k3kSecret('edge', 'edge'));
    await pass(api);
    const before = api.secret('argocd', 'cluster-edge');
    expect(before).toBeDefined();

    api.addSecret(
      k3kSecret(
        'edge',
        'edge',
        kubeconfigWith({ 'insecure-skip-tls-verify': true }),
      ),
    );
    const { report, log } = await pass(api);

    expect(report.writes).toBe(0);
    expect(api.secret('argocd', 'cluster-edge')).toEqual(before);
    expect(log.messages('warn')).toContain('no usable kubeconfig; skipping');
  });
});
