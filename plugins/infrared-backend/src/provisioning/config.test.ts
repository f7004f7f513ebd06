import { ConfigReader } from '@backstage/config';
import { readProvisioningConfig } from './config';

describe('readProvisioningConfig', () => {
  it('defaults: enabled, 15 s, no template, auto-registration from output kubeconfig', () => {
    expect(readProvisioningConfig(new ConfigReader({}))).toEqual({
      enabled: true,
      interval: { seconds: 15 },
      templates: [],
      kubeconfigOutput: 'kubeconfig',
    });
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
