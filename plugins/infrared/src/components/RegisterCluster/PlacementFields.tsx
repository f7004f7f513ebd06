import Box from '@material-ui/core/Box';
import MenuItem from '@material-ui/core/MenuItem';
import TextField from '@material-ui/core/TextField';
import {
  CLUSTER_FLAVORS,
  CLUSTER_PROVIDERS,
  type FieldError,
} from '@infrared-clusters/plugin-infrared-common';
import type {
  RegisterFormCheck,
  RegisterFormValues,
} from '../../lib/registerForm';

export const messages = (errors?: FieldError[]) =>
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

export interface PlacementFieldsProps {
  values: RegisterFormValues;
  set: <K extends keyof RegisterFormValues>(
    key: K,
    value: RegisterFormValues[K],
  ) => void;
  serverErrors: RegisterFormCheck['errors'];
  regionError?: string;
  disabled?: boolean;
}

/** Flavor, provider and region: optional facts about the cluster, on one row. */
export const PlacementFields = ({
  values,
  set,
  serverErrors,
  regionError,
  disabled,
}: PlacementFieldsProps) => (
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
);
