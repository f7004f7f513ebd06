import { KubeClient } from './client';
import {
  kubeAccessOf,
  kubeConfigFromAccess,
  parseKubeconfig,
  renderKubeconfig,
} from './kubeconfig';

describe('kubeconfig', () => {
  it('round-trips a client-certificate kubeconfig', () => {
    const access = {
      server: 'https://127.0.0.1:6443',
      caData: 'CA',
      certData: 'CERT',
      keyData: 'KEY',
    };
    const text = renderKubeconfig('management', access);
    expect(text).toContain('certificate-authority-data: Q0E=');
    expect(parseKubeconfig(text)).toEqual({ ...access, token: undefined });
  });

  it('round-trips a bearer-token kubeconfig', () => {
    const access = {
      server: 'https://127.0.0.1:6444',
      caData: 'CA',
      token: 'abc',
    };
    expect(parseKubeconfig(renderKubeconfig('edge', access, 'sa'))).toEqual({
      ...access,
      certData: undefined,
      keyData: undefined,
    });
  });

  it('reads a kubeconfig without a current context from its first context', () => {
    const text = renderKubeconfig('edge', {
      server: 'https://127.0.0.1:6445',
      caData: 'CA',
      token: 't',
    }).replace(/^current-context:.*$/m, '');
    expect(parseKubeconfig(text).server).toBe('https://127.0.0.1:6445');
    expect(KubeClient.fromKubeconfig(text).server).toBe(
      'https://127.0.0.1:6445',
    );
  });

  it('gives a client the identity it was made with', () => {
    const access = {
      server: 'https://127.0.0.1:6446',
      caData: 'CA',
      token: 'abc',
      certData: undefined,
      keyData: undefined,
    };
    expect(kubeAccessOf(kubeConfigFromAccess(access))).toEqual(access);
    const client = KubeClient.fromAccess(access);
    expect(client.server).toBe(access.server);
    expect(client.access).toEqual(access);
  });
});
