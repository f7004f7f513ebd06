import { validateRegisterClusterRequest } from '../api/validate';
import {
  defaultAllowList,
  validateAllowedProvision,
  type ProvisioningAllowList,
} from './allowed';
import type { ClusterTemplate } from './types';

const templates: ClusterTemplate[] = [
  {
    module: 'local/demo-cluster',
    title: 'Demo',
    source: '/repo/examples/tofu/demo-cluster',
    variables: [{ name: 'name', type: 'string' }],
  },
  {
    module: 'aws/k3s-node',
    version: 'v0.2.3',
    title: 'k3s',
    image: 'registry.example/tofu:1.10',
    variables: [],
  },
];

describe('the images and sources a Job may run', () => {
  it("by default: the default OpenTofu image, the templates' images and sources", () => {
    expect(defaultAllowList(templates)).toEqual({
      images: ['ghcr.io/opentofu/opentofu:1.10', 'registry.example/tofu:1.10'],
      sources: ['/repo/examples/tofu/demo-cluster'],
    });
    expect(defaultAllowList([])).toEqual({
      images: ['ghcr.io/opentofu/opentofu:1.10'],
      sources: [],
    });
  });

  it('config replaces the defaults', () => {
    expect(
      defaultAllowList(templates, { images: ['a/b:1'], sources: [] }),
    ).toEqual({ images: ['a/b:1'], sources: [] });
  });

  const allow: ProvisioningAllowList = defaultAllowList(templates);

  it.each([
    [{}],
    [{ image: '' }],
    [{ image: 'ghcr.io/opentofu/opentofu:1.10' }],
    [{ image: 'registry.example/tofu:1.10' }],
    [{ source: '/repo/examples/tofu/demo-cluster' }],
  ])('allows %j', provision => {
    expect(validateAllowedProvision(provision, allow)).toEqual([]);
  });

  it.each([
    [
      { image: 'evil.example/miner:latest' },
      'provision.image',
      '"evil.example/miner:latest" is not in infrared.provisioning.allowedImages',
    ],
    [
      { image: 'ghcr.io/opentofu/opentofu:1.10@sha256:0' },
      'provision.image',
      'is not in infrared.provisioning.allowedImages',
    ],
    [
      { source: 'git::https://evil.example/steal' },
      'provision.source',
      '"git::https://evil.example/steal" is not in infrared.provisioning.allowedSources',
    ],
    [
      { source: '/repo/examples/tofu/demo-cluster/../../../etc' },
      'provision.source',
      'is not in infrared.provisioning.allowedSources',
    ],
  ])('refuses %j naming %s', (provision, field, message) => {
    const errors = validateAllowedProvision(provision, allow);
    expect(errors).toHaveLength(1);
    expect(errors[0].field).toBe(field);
    expect(errors[0].message).toContain(message);
  });
});

describe('POST /v1/clusters refuses an image or source not allowed (the register rule)', () => {
  const body = (provision: Record<string, unknown>) => ({
    name: 'edge-1',
    template: { module: 'local/demo-cluster' },
    provision: { variables: { name: 'edge-1' }, ...provision },
  });

  it("by default only the templates' own", () => {
    const refused = validateRegisterClusterRequest(
      body({ image: 'evil.example/miner:latest', source: 'git::https://x/y' }),
      { templates },
    );
    expect('errors' in refused && refused.errors.map(e => e.field)).toEqual([
      'provision.image',
      'provision.source',
    ]);
    expect(
      validateRegisterClusterRequest(
        body({ source: '/repo/examples/tofu/demo-cluster' }),
        { templates },
      ),
    ).toHaveProperty('value');
  });

  it('with configured lists', () => {
    const options = {
      templates,
      allowedImages: ['registry.example/tofu:1.11'],
      allowedSources: ['git::https://example.com/modules//k3s?ref=v1'],
    };
    expect(
      validateRegisterClusterRequest(
        body({
          image: 'registry.example/tofu:1.11',
          source: 'git::https://example.com/modules//k3s?ref=v1',
        }),
        options,
      ),
    ).toHaveProperty('value');
    const refused = validateRegisterClusterRequest(
      body({ image: 'ghcr.io/opentofu/opentofu:1.10' }),
      options,
    );
    expect('errors' in refused && refused.errors).toEqual([
      {
        field: 'provision.image',
        message: expect.stringContaining(
          'is not in infrared.provisioning.allowedImages',
        ),
      },
    ]);
  });
});

describe('a credentials Secret is never a state Secret', () => {
  it('POST naming tfstate-... as credentials: 400 naming the field', () => {
    const refused = validateRegisterClusterRequest(
      {
        name: 'edge-1',
        template: { module: 'local/demo-cluster' },
        provision: {
          variables: { name: 'edge-1' },
          credentialsSecretRef: { name: 'tfstate-default-cluster-prod' },
        },
      },
      { templates },
    );
    expect('errors' in refused && refused.errors).toEqual([
      {
        field: 'provision.credentialsSecretRef.name',
        message: expect.stringContaining('names an OpenTofu state Secret'),
      },
    ]);
  });
});
