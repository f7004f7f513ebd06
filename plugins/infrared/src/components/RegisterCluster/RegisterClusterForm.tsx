import Box from '@material-ui/core/Box';
import FormControl from '@material-ui/core/FormControl';
import FormControlLabel from '@material-ui/core/FormControlLabel';
import FormLabel from '@material-ui/core/FormLabel';
import MenuItem from '@material-ui/core/MenuItem';
import Radio from '@material-ui/core/Radio';
import RadioGroup from '@material-ui/core/RadioGroup';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import {
  CLUSTER_FLAVORS,
  CLUSTER_NAME_MAX_LENGTH,
  CLUSTER_PROVIDERS,
  ClusterTemplate,
  FieldError,
  IN_CLUSTER_SERVER,
  type ProvisioningRunnerView,
} from '@infrared-clusters/plugin-infrared-common';
import type {
  ConnectionChoice,
  RegisterFormCheck,
  RegisterFormValues,
} from '../../lib/registerForm';
import { BuildInputs } from './BuildInputs';
import { KubeconfigInput } from './KubeconfigInput';

export interface RegisterClusterFormProps {
  values: RegisterFormValues;
  onChange: (values: RegisterFormValues) => void;
  check: RegisterFormCheck;
  /** Fields the user has left once: their errors show even while empty. */
  touched: Partial<Record<keyof RegisterFormValues, boolean>>;
  onTouch: (field: keyof RegisterFormValues) => void;
  /** Errors the server returned for the last submit, by field. */
  serverErrors: RegisterFormCheck['errors'];
  disabled?: boolean;
  /** The cluster templates for "Build with OpenTofu"; undefined while loading. */
  templates?: ClusterTemplate[];
  templatesError?: string;
  /** Whether the OpenTofu Jobs can run yet. */
  runner?: ProvisioningRunnerView;
}

const messages = (errors?: FieldError[]) =>
  errors?.map(e => e.message).join('; ');

/**
 * An optional select: an empty value shows "Not set" as a placeholder, and no
 * "not set" item comes first to be picked by accident; once a value is
 * chosen, a last item clears it.
 */
const unsetSelectProps = (label: string) => ({
  displayEmpty: true,
  renderValue: (value: unknown) =>
    value ? String(value) : <em style={{ opacity: 0.6 }}>Not set</em>,
  SelectDisplayProps: { 'aria-label': label } as any,
});
const clearItem = (value: string) =>
  value ? (
    <MenuItem value="">
      <em>Clear (not set)</em>
    </MenuItem>
  ) : null;

const NAME_HINT = `Lowercase letters, digits and hyphens, at most ${CLUSTER_NAME_MAX_LENGTH} characters`;

/** The fields of "Register a workload cluster", each checked as it changes. */
export const RegisterClusterForm = ({
  values,
  onChange,
  check,
  touched,
  onTouch,
  serverErrors,
  disabled,
  templates,
  templatesError,
  runner,
}: RegisterClusterFormProps) => {
  const set = <K extends keyof RegisterFormValues>(
    key: K,
    value: RegisterFormValues[K],
  ) => onChange({ ...values, [key]: value });
  const shown = (field: keyof RegisterFormValues) =>
    touched[field] || values[field] !== '';
  const fieldError = (field: 'name' | 'region' | 'server') =>
    messages(serverErrors[field]) ||
    (shown(field) ? messages(check.errors[field]) : undefined);

  const nameError = fieldError('name');
  const regionError = fieldError('region');
  const serverError = fieldError('server');

  return (
    <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
      <TextField
        label="Name"
        required
        variant="outlined"
        value={values.name}
        disabled={disabled}
        onChange={e => set('name', e.target.value)}
        onBlur={() => onTouch('name')}
        error={!!nameError}
        helperText={nameError ?? NAME_HINT}
        inputProps={{ 'aria-label': 'Name', spellCheck: false }}
      />
      <FormControl component="fieldset" disabled={disabled}>
        <FormLabel component="legend">Connection</FormLabel>
        <RadioGroup
          row
          value={values.connection}
          onChange={e => set('connection', e.target.value as ConnectionChoice)}
        >
          <FormControlLabel
            value="kubeconfig"
            control={<Radio />}
            label="Kubeconfig"
          />
          <FormControlLabel
            value="inCluster"
            control={<Radio />}
            label="The management cluster itself"
          />
          <FormControlLabel
            value="build"
            control={<Radio />}
            label="Build with OpenTofu"
          />
        </RadioGroup>
      </FormControl>
      {values.connection === 'build' && (
        <BuildInputs
          values={values}
          onChange={onChange}
          templates={templates}
          templatesError={templatesError}
          runner={runner}
          errors={[
            ...(serverErrors.template ?? check.errors.template ?? []),
            ...(serverErrors.provision ?? check.errors.provision ?? []),
          ]}
          disabled={disabled}
        />
      )}
      {values.connection === 'kubeconfig' && (
        <KubeconfigInput
          value={values.kubeconfig}
          onChange={text => set('kubeconfig', text)}
          inspection={check.kubeconfig}
          errors={
            serverErrors.kubeconfig ??
            (values.kubeconfig.trim() ? check.errors.kubeconfig : undefined)
          }
        />
      )}
      {values.connection === 'inCluster' && (
        <Typography variant="body2" color="textSecondary">
          Infrared uses its own service account, and Argo CD its built-in
          in-cluster destination {IN_CLUSTER_SERVER}: no cluster Secret is
          written. Use this to run zones on the management cluster managed as a
          cluster of their own.
        </Typography>
      )}
      <Box display="flex" style={{ gap: 16 }}>
        <TextField
          select
          label="Flavor"
          variant="outlined"
          InputLabelProps={{ shrink: true }}
          value={values.flavor}
          disabled={disabled}
          onChange={e =>
            set('flavor', e.target.value as RegisterFormValues['flavor'])
          }
          style={{ minWidth: 140 }}
          error={!!serverErrors.flavor}
          helperText={messages(serverErrors.flavor) ?? 'optional'}
          SelectProps={unsetSelectProps('Flavor')}
        >
          {CLUSTER_FLAVORS.map(f => (
            <MenuItem key={f} value={f}>
              {f}
            </MenuItem>
          ))}
          {clearItem(values.flavor)}
        </TextField>
        <TextField
          select
          label="Provider"
          variant="outlined"
          InputLabelProps={{ shrink: true }}
          value={values.provider}
          disabled={disabled}
          onChange={e =>
            set('provider', e.target.value as RegisterFormValues['provider'])
          }
          style={{ minWidth: 140 }}
          error={!!serverErrors.provider}
          helperText={messages(serverErrors.provider) ?? 'optional'}
          SelectProps={unsetSelectProps('Provider')}
        >
          {CLUSTER_PROVIDERS.map(p => (
            <MenuItem key={p} value={p}>
              {p}
            </MenuItem>
          ))}
          {clearItem(values.provider)}
        </TextField>
        <TextField
          id="register-region"
          label="Region"
          variant="outlined"
          value={values.region}
          disabled={disabled}
          onChange={e => set('region', e.target.value)}
          error={!!regionError}
          helperText={regionError ?? 'like us-east-1'}
          inputProps={{ 'aria-label': 'Region' }}
        />
      </Box>
      {values.connection === 'kubeconfig' && (
        <TextField
          label="Server override (optional)"
          variant="outlined"
          value={values.server}
          disabled={disabled}
          onChange={e => set('server', e.target.value)}
          error={!!serverError}
          helperText={
            serverError ??
            "The API server address Argo CD uses, when it differs from the kubeconfig's"
          }
          inputProps={{ 'aria-label': 'Server override' }}
        />
      )}
    </Box>
  );
};
