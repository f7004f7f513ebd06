import { useMemo, useState } from 'react';
import Button from '@material-ui/core/Button';
import CircularProgress from '@material-ui/core/CircularProgress';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogTitle from '@material-ui/core/DialogTitle';
import Alert from '@material-ui/lab/Alert';
import { useApi } from '@backstage/frontend-plugin-api';
import {
  ClusterView,
  InfraredApiError,
} from '@infrared-clusters/plugin-infrared-common';
import { infraredApiRef } from '../../api';
import {
  checkRegisterForm,
  EMPTY_FORM,
  groupErrors,
  RegisterFormCheck,
  RegisterFormValues,
} from '../../lib/registerForm';
import { RegisterClusterForm } from './RegisterClusterForm';
import { RegistrationProgress } from './RegistrationProgress';
import { useClusterTemplates } from './useClusterTemplates';

export interface RegisterClusterDialogProps {
  onClose: () => void;
  /** Called once the API has created the cluster. */
  onRegistered: (cluster: ClusterView) => void;
  pollIntervalMs: number;
  /** The name to start with (the placement card's "Register it" passes the zone's cluster). */
  initialName?: string;
}

/**
 * The register flow's state: the form's values, what was touched, the check against -common's
 * rules, the submit and its answer (the server's field errors, or the created cluster).
 */
function useRegisterFlow({
  onRegistered,
  pollIntervalMs,
  initialName,
}: Omit<RegisterClusterDialogProps, 'onClose'>) {
  const api = useApi(infraredApiRef);
  const [values, setValues] = useState<RegisterFormValues>(() =>
    initialName ? { ...EMPTY_FORM, name: initialName } : EMPTY_FORM,
  );
  const [touched, setTouched] = useState<
    Partial<Record<keyof RegisterFormValues, boolean>>
  >({});
  const [serverErrors, setServerErrors] = useState<RegisterFormCheck['errors']>(
    {},
  );
  const [submitError, setSubmitError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  const [created, setCreated] = useState<ClusterView>();
  const {
    templates,
    runner,
    error: templatesError,
  } = useClusterTemplates(api, pollIntervalMs * 3);
  const check = useMemo(
    () => checkRegisterForm(values, templates ?? []),
    [values, templates],
  );

  const change = (next: RegisterFormValues) => {
    setValues(next);
    setServerErrors({});
    setSubmitError(undefined);
  };

  const submit = async () => {
    if (!check.request) return;
    setSubmitting(true);
    setSubmitError(undefined);
    try {
      const cluster = await api.registerCluster(check.request);
      setValues(EMPTY_FORM);
      setCreated(cluster);
      onRegistered(cluster);
    } catch (e) {
      const error = e as InfraredApiError;
      setServerErrors(groupErrors(error.fieldErrors ?? []));
      setSubmitError(error.message);
    } finally {
      setSubmitting(false);
    }
  };

  const touch = (field: keyof RegisterFormValues) =>
    setTouched(t => ({ ...t, [field]: true }));
  return {
    ...{ values, change, touched, touch, check, serverErrors, submitError },
    ...{ submitting, created, submit, templates, runner, templatesError },
  };
}

/** The dialog's buttons: Cancel and Register while the form shows, Close once it is created. */
const RegisterActions = (props: {
  created: boolean;
  submitting: boolean;
  canSubmit: boolean;
  onClose: () => void;
}) =>
  props.created ? (
    <Button onClick={props.onClose} variant="contained" color="primary">
      Close
    </Button>
  ) : (
    <>
      <Button onClick={props.onClose} disabled={props.submitting}>
        Cancel
      </Button>
      <Button
        type="submit"
        form="register-cluster-form"
        variant="contained"
        color="primary"
        disabled={!props.canSubmit || props.submitting}
        startIcon={
          props.submitting ? <CircularProgress size={16} /> : undefined
        }
      >
        Register
      </Button>
    </>
  );

/**
 * "Register a workload cluster": the form, then the new cluster's progress. The kubeconfig lives
 * in this component's state only and goes nowhere but the POST body; closing the dialog drops it.
 */
export const RegisterClusterDialog = (props: RegisterClusterDialogProps) => {
  const { onClose, pollIntervalMs } = props;
  const flow = useRegisterFlow(props);
  const { values, change, touched, touch, check, serverErrors } = flow;
  const { submitError, submitting, created, submit } = flow;
  const { templates, runner, templatesError } = flow;
  return (
    <Dialog
      open
      onClose={submitting ? undefined : onClose}
      fullWidth
      maxWidth="md"
      aria-labelledby="register-cluster-title"
    >
      <DialogTitle id="register-cluster-title">
        Register a workload cluster
      </DialogTitle>
      <DialogContent>
        {created ? (
          <RegistrationProgress
            created={created}
            pollIntervalMs={pollIntervalMs}
          />
        ) : (
          <form
            onSubmit={e => {
              e.preventDefault();
              submit();
            }}
            id="register-cluster-form"
            autoComplete="off"
          >
            <RegisterClusterForm
              values={values}
              onChange={change}
              check={check}
              touched={touched}
              onTouch={touch}
              serverErrors={serverErrors}
              disabled={submitting}
              templates={templates}
              templatesError={templatesError}
              runner={runner}
            />
            {submitError && (
              <Alert severity="error" style={{ marginTop: 16 }}>
                {submitError}
              </Alert>
            )}
          </form>
        )}
      </DialogContent>
      <DialogActions>
        <RegisterActions
          created={!!created}
          submitting={submitting}
          canSubmit={!!check.request}
          onClose={onClose}
        />
      </DialogActions>
    </Dialog>
  );
};
