import { InfraredKubernetesAuthProviders } from './InfraredKubernetesAuthProviders';

describe('InfraredKubernetesAuthProviders', () => {
  const others = {
    decorateRequestBodyForAuth: jest.fn(async (_: string, body: any) => ({
      ...body,
      auth: { google: 'browser-token' },
    })),
    getCredentials: jest.fn(async () => ({ token: 'browser-token' })),
  };
  const providers = new InfraredKubernetesAuthProviders(others);

  it('adds nothing from the browser for infrared clusters: the backend authenticates them', async () => {
    const body = { entity: { metadata: { name: 'edge-hello' } } } as any;
    await expect(
      providers.decorateRequestBodyForAuth('infrared', body),
    ).resolves.toEqual(body);
    await expect(providers.getCredentials('infrared')).resolves.toEqual({});
    expect(others.decorateRequestBodyForAuth).not.toHaveBeenCalled();
  });

  it('leaves every other auth provider to the Kubernetes plugin', async () => {
    await expect(
      providers.decorateRequestBodyForAuth('google', {} as any),
    ).resolves.toEqual({ auth: { google: 'browser-token' } });
    await expect(providers.getCredentials('google')).resolves.toEqual({
      token: 'browser-token',
    });
  });
});
