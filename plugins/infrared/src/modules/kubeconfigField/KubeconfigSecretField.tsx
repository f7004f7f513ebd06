import { useTemplateSecrets } from '@backstage/plugin-scaffolder-react';
import {
  createFormField,
  FormFieldBlueprint,
} from '@backstage/plugin-scaffolder-react/alpha';
import { TextField } from '@material-ui/core';
import { useState } from 'react';

/** What the field leaves in the task's parameters: a note, never the kubeconfig. */
export const KEPT_AS_SECRET = '(kept as a task secret)';

type Props = Parameters<Parameters<typeof createFormField>[0]['component']>[0];

/**
 * A multi-line secret field for a kubeconfig (`ui:field: KubeconfigSecret`). Backstage's own
 * `ui:field: Secret` is a password input, which drops the newlines a kubeconfig is made of. Like
 * it, this one puts the text in the template's secrets (under the field's name) and only a note
 * in the parameters, so the kubeconfig reaches the action as `ctx.secrets.<name>` and never the
 * task's parameters or log. The text is drawn as dots.
 */
export function KubeconfigSecretInput(props: Props) {
  const { name, onChange, schema, uiSchema, rawErrors, required, disabled } =
    props;
  const { secrets, setSecrets } = useTemplateSecrets();
  const [value, setValue] = useState(secrets[name] ?? '');
  return (
    <TextField
      id={`${name}-kubeconfig-secret`}
      label={schema.title ?? 'Kubeconfig'}
      helperText={uiSchema?.['ui:description'] ?? schema.description}
      required={required}
      disabled={disabled}
      error={!!rawErrors?.length}
      multiline
      minRows={6}
      maxRows={14}
      fullWidth
      margin="normal"
      variant="outlined"
      value={value}
      inputProps={{
        'aria-label': schema.title ?? 'Kubeconfig',
        spellCheck: false,
        autoComplete: 'off',
        style: { WebkitTextSecurity: 'disc', fontFamily: 'monospace' } as any,
      }}
      onChange={event => {
        const text = event.target.value;
        setValue(text);
        setSecrets({ [name]: text });
        onChange(text ? KEPT_AS_SECRET : undefined);
      }}
    />
  );
}

export const kubeconfigSecretField = FormFieldBlueprint.make({
  name: 'kubeconfig-secret',
  params: {
    field: async () =>
      createFormField({
        name: 'KubeconfigSecret',
        component: KubeconfigSecretInput,
      }),
  },
});
