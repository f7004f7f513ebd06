import Box from '@material-ui/core/Box';
import MenuItem from '@material-ui/core/MenuItem';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import type {
  ClusterTemplate,
  FieldError,
  ProvisioningRunnerView,
} from '@infrared-clusters/plugin-infrared-common';
import { RunnerNotice } from './RunnerNotice';
import { templateKey, type RegisterFormValues } from '../../lib/registerForm';

export interface BuildInputsProps {
  values: RegisterFormValues;
  onChange: (values: RegisterFormValues) => void;
  /** The templates the portal offers; undefined while loading. */
  templates?: ClusterTemplate[];
  templatesError?: string;
  /** Whether the OpenTofu Jobs can run yet (a notice with the progress while they cannot). */
  runner?: ProvisioningRunnerView;
  /** Errors of the build fields (template, provision.*), from -common's rules or the server. */
  errors: FieldError[];
  disabled?: boolean;
}

const errorFor = (errors: FieldError[], field: string) =>
  errors
    .filter(e => e.field === field)
    .map(e => e.message)
    .join('; ') || undefined;

/** Why there is no template to pick: the load failed, is under way, or the portal offers none. */
const TemplatesState = (props: {
  error?: string;
  templates?: ClusterTemplate[];
}) => {
  if (props.error) {
    return (
      <Typography variant="body2" color="error">
        The cluster templates could not be loaded: {props.error}
      </Typography>
    );
  }
  if (!props.templates) {
    return (
      <Typography variant="body2">Loading the cluster templates…</Typography>
    );
  }
  return (
    <Typography variant="body2" color="textSecondary">
      The portal offers no cluster template: a platform admin lists them under
      infrared.provisioning.templates.
    </Typography>
  );
};

type TemplateVariable = ClusterTemplate['variables'][number];

/**
 * The variables the form asks for: not the platform's own (`internal`, a machine path: its default
 * is used, never shown), nor a `name` with no default (the cluster's name fills it).
 */
function shownVariables(
  template: ClusterTemplate | undefined,
  values: RegisterFormValues,
): TemplateVariable[] {
  return (template?.variables ?? []).filter(
    v =>
      !v.internal &&
      !(v.name === 'name' && !values.variables.name && v.default === undefined),
  );
}

/** One variable of the template, checked as it changes; its type and default in the help. */
const VariableField = ({
  variable: v,
  value,
  error,
  disabled,
  onChange,
}: {
  variable: TemplateVariable;
  value: string;
  error?: string;
  disabled?: boolean;
  onChange: (value: string) => void;
}) => (
  <TextField
    label={v.title ?? v.name}
    variant="outlined"
    value={value}
    placeholder={v.default}
    disabled={disabled}
    onChange={e => onChange(e.target.value)}
    error={!!error && (value !== '' || v.default === undefined)}
    helperText={
      (value !== '' && error) ||
      `${v.description ? `${v.description} ` : ''}(${v.type}${
        v.default !== undefined ? `, default ${v.default}` : ', required'
      })`
    }
    inputProps={{ 'aria-label': `Variable ${v.name}`, spellCheck: false }}
  />
);

/** "Build with OpenTofu": the template, its variables and the credentials Secret's name. */
export const BuildInputs = ({
  values,
  onChange,
  templates,
  templatesError,
  runner,
  errors,
  disabled,
}: BuildInputsProps) => {
  if (templatesError || !templates?.length) {
    return <TemplatesState error={templatesError} templates={templates} />;
  }
  const template = templates.find(t => templateKey(t) === values.template);
  const setVariable = (name: string, value: string) =>
    onChange({ ...values, variables: { ...values.variables, [name]: value } });
  const templateError = errorFor(errors, 'template');
  return (
    <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
      {runner && !runner.ready && <RunnerNotice runner={runner} />}
      <Typography variant="body2" color="textSecondary">
        Infrared runs the template's OpenTofu module in a Job: a plan first.
        Nothing is built until you apply it from the cluster's panel.
      </Typography>
      <TextField
        select
        label="Template"
        required
        variant="outlined"
        value={values.template}
        disabled={disabled}
        onChange={e =>
          onChange({ ...values, template: e.target.value, variables: {} })
        }
        error={!!templateError && !!values.template}
        helperText={(values.template && templateError) || template?.description}
        SelectProps={{
          SelectDisplayProps: { 'aria-label': 'Template' } as any,
        }}
      >
        {templates.map(t => (
          <MenuItem key={templateKey(t)} value={templateKey(t)}>
            {t.title} ({templateKey(t)})
          </MenuItem>
        ))}
      </TextField>
      {shownVariables(template, values).map(v => (
        <VariableField
          key={v.name}
          variable={v}
          value={values.variables[v.name] ?? ''}
          error={errorFor(errors, `provision.variables.${v.name}`)}
          disabled={disabled}
          onChange={value => setVariable(v.name, value)}
        />
      ))}
      <TextField
        label="Credentials Secret (optional)"
        variant="outlined"
        value={values.credentialsSecret}
        disabled={disabled}
        onChange={e =>
          onChange({ ...values, credentialsSecret: e.target.value })
        }
        error={!!errorFor(errors, 'provision.credentialsSecretRef.name')}
        helperText={
          errorFor(errors, 'provision.credentialsSecretRef.name') ??
          "A Secret in the OpenTofu Jobs' namespace (infrared-tofu unless infrared.provisioning.namespace names another) whose keys become the Job's environment (AWS_ACCESS_KEY_ID ..., GIT_TOKEN for a private module). Only its name is sent."
        }
        inputProps={{ 'aria-label': 'Credentials Secret', spellCheck: false }}
      />
    </Box>
  );
};
