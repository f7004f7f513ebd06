import { ConfigReader } from '@backstage/config';
import { readProvisioningConfig } from './config';

describe('readProvisioningConfig', () => {
  it('defaults: enabled, 15 s, no template, auto-registration from output kubeconfig', () => {
    expect(readProvisioningConfig(new ConfigReader({}))).toEqual({
      enabled: true,
      interval: { seconds: 15 },
      templates: [],
      kubeconfigOutput: 'kubeconfig',
      namespace: 'infrared-tofu',
      allow: { images: ['ghcr.io/opentofu/opentofu:1.10'], sources: [] },
      watch: false,
    });
    expect(
      readProvisioningConfig(
        new ConfigReader({ infrared: { provisioning: { watch: true } } }),
      ).watch,
    ).toBe(true);
  });

  it("namespace and allow-lists: by default the templates' images and sources; config replaces them", () => {
    const templates = [
      {
        module: 'local/demo-cluster',
        source: './examples/tofu/demo-cluster',
        image: 'registry.example/tofu:1.10',
      },
      { module: 'aws/k3s-node', version: 'v0.2.3' },
    ];
    const byDefault = readProvisioningConfig(
      new ConfigReader({ infrared: { provisioning: { templates } } }),
      '/repo',
    );
    expect(byDefault.namespace).toBe('infrared-tofu');
    expect(byDefault.allow).toEqual({
      images: ['ghcr.io/opentofu/opentofu:1.10', 'registry.example/tofu:1.10'],
      sources: ['/repo/examples/tofu/demo-cluster'],
    });
    const configured = readProvisioningConfig(
      new ConfigReader({
        infrared: {
          provisioning: {
            namespace: 'builds',
            templates,
            allowedImages: ['registry.example/tofu:1.11'],
            allowedSources: ['./modules/x', 'git::https://example.com/m'],
          },
        },
      }),
      '/repo',
    );
    expect(configured.namespace).toBe('builds');
    expect(configured.allow).toEqual({
      images: ['registry.example/tofu:1.11'],
      sources: ['/repo/modules/x', 'git::https://example.com/m'],
    });
    expect(() =>
      readProvisioningConfig(
        new ConfigReader({
          infrared: { provisioning: { namespace: 'Not_A_Name' } },
        }),
      ),
    ).toThrow(/infrared.provisioning.namespace must be a namespace name/);
  });

  it('templates: repository paths resolved against the root, types checked', () => {
    const settings = readProvisioningConfig(
      new ConfigReader({
        infrared: {
          provisioning: {
            interval: '5s',
            autoRegister: { output: 'admin_kubeconfig' },
            templates: [
              {
                module: 'local/demo-cluster',
                title: 'Demo',
                source: './examples/tofu/demo-cluster',
                variables: [
                  { name: 'name' },
                  {
                    name: 'devenv_cli',
                    default: './packages/devenv/bin/devenv.js',
                  },
                  { name: 'nodes', type: 'number', default: '1' },
                ],
              },
            ],
          },
        },
      }),
      '/repo',
    );
    expect(settings.kubeconfigOutput).toBe('admin_kubeconfig');
    expect(settings.templates).toEqual([
      {
        module: 'local/demo-cluster',
        title: 'Demo',
        source: '/repo/examples/tofu/demo-cluster',
        variables: [
          { name: 'name', type: 'string' },
          {
            name: 'devenv_cli',
            type: 'string',
            default: '/repo/packages/devenv/bin/devenv.js',
          },
          { name: 'nodes', type: 'number', default: '1' },
        ],
      },
    ]);
  });

  it('refuses an unknown variable type, naming the key', () => {
    expect(() =>
      readProvisioningConfig(
        new ConfigReader({
          infrared: {
            provisioning: {
              templates: [
                { module: 'm', variables: [{ name: 'x', type: 'int' }] },
              ],
            },
          },
        }),
      ),
    ).toThrow(
      /templates\[0\]\.variables\[0\]\.type must be string, number, bool, list, map or object, not int/,
    );
  });

  it('reads internal: true on a variable, and refuses an internal variable without default', () => {
    const read = (variables: object[]) =>
      readProvisioningConfig(
        new ConfigReader({
          infrared: {
            provisioning: { templates: [{ module: 'm', variables }] },
          },
        }),
        '/repo',
      );
    expect(
      read([
        { name: 'name' },
        { name: 'data_dir', default: './.data/built', internal: true },
      ]).templates[0].variables,
    ).toEqual([
      { name: 'name', type: 'string' },
      {
        name: 'data_dir',
        type: 'string',
        default: '/repo/.data/built',
        internal: true,
      },
    ]);
    expect(() => read([{ name: 'data_dir', internal: true }])).toThrow(
      /templates\[0\]\.variables\[0\] is internal but has no default/,
    );
  });

  it('autoRegister.enabled false turns auto-registration off', () => {
    expect(
      readProvisioningConfig(
        new ConfigReader({
          infrared: { provisioning: { autoRegister: { enabled: false } } },
        }),
      ).kubeconfigOutput,
    ).toBeUndefined();
  });
});
