import {
  SecretsContextProvider,
  useTemplateSecrets,
} from '@backstage/plugin-scaffolder-react';
import { fireEvent, render, screen } from '@testing-library/react';
import { KEPT_AS_SECRET, KubeconfigSecretInput } from './KubeconfigSecretField';

const KUBECONFIG =
  'apiVersion: v1\nkind: Config\nusers:\n- user:\n    token: abc\n';

function ShowSecrets() {
  const { secrets } = useTemplateSecrets();
  return <pre data-testid="secrets">{JSON.stringify(secrets)}</pre>;
}

describe('KubeconfigSecretInput', () => {
  it('keeps the kubeconfig, newlines and all, in the secrets and only a note in the parameters', () => {
    const onChange = jest.fn();
    render(
      <SecretsContextProvider>
        <KubeconfigSecretInput
          {...({
            name: 'kubeconfig',
            onChange,
            schema: { title: 'Kubeconfig', type: 'string' },
            uiSchema: {},
            rawErrors: [],
            required: true,
          } as any)}
        />
        <ShowSecrets />
      </SecretsContextProvider>,
    );
    fireEvent.change(screen.getByRole('textbox', { name: 'Kubeconfig' }), {
      target: { value: KUBECONFIG },
    });
    expect(JSON.parse(screen.getByTestId('secrets').textContent!)).toEqual({
      kubeconfig: KUBECONFIG,
    });
    expect(onChange).toHaveBeenLastCalledWith(KEPT_AS_SECRET);
    expect(JSON.stringify(onChange.mock.calls)).not.toContain('token');
  });
});
