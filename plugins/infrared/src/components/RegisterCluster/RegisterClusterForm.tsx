import Box from '@material-ui/core/Box';
import FormControl from '@material-ui/core/FormControl';
import FormControlLabel from '@material-ui/core/FormControlLabel';
import FormLabel from '@material-ui/core/FormLabel';
import Radio from '@material-ui/core/Radio';
import RadioGroup from '@material-ui/core/RadioGroup';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import {
  CLUSTER_NAME_MAX_LENGTH,
  ClusterTemplate,
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
import { messages, PlacementFields } from './PlacementFields';

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

const NAME_HINT = `Lowercase letters, digits and hyphens, at most ${CLUSTER_NAME_MAX_LENGTH} characters`;

/** How the cluster is reached: a kubeconfig, the management cluster itself, or built with OpenTofu. */
const ConnectionRadios = ({
  value,
  onChange,
  disabled,
}: {
  value: ConnectionChoice;
  onChange: (value: ConnectionChoice) => void;
  disabled?: boolean;
}) => (
  <FormControl component="fieldset" disabled={disabled}>
    <FormLabel component="legend">Connection</FormLabel>
    <RadioGroup
      row
      value={value}
      onChange={e => onChange(e.target.value as ConnectionChoice)}
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
);

/** What the chosen connection needs: the build's template, the kubeconfig, or nothing but a note. */
const ConnectionInputs = (
  props: RegisterClusterFormProps & {
    set: (key: 'kubeconfig', value: string) => void;
  },
) => {
  const { values, onChange, check, serverErrors, disabled, set } = props;
  const { templates, templatesError, runner } = props;
  return (
    <>
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
    </>
  );
};

/** The fields of "Register a workload cluster", each checked as it changes. */
export const RegisterClusterForm = (props: RegisterClusterFormProps) => {
  const { values, onChange, check, touched, onTouch, serverErrors, disabled } =
    props;
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
      <ConnectionRadios
        value={values.connection}
        onChange={v => set('connection', v)}
        disabled={disabled}
      />
      <ConnectionInputs {...props} set={set} />
      <PlacementFields
        values={values}
        set={set}
        serverErrors={serverErrors}
        regionError={regionError}
        disabled={disabled}
      />
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
