import { parseKubeconfig, renderKubeconfig } from './kube';

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
});
