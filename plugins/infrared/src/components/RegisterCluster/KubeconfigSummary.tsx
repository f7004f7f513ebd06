import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import type {
  CredentialKind,
  FieldError,
  KubeconfigInspection,
} from '@infrared-clusters/plugin-infrared-common';

const CREDENTIAL: Record<CredentialKind, string> = {
  token: 'bearer token',
  'client-certificate': 'client certificate and key',
  exec: 'exec plugin (converted for Argo CD)',
};

export interface KubeconfigSummaryProps {
  inspection?: KubeconfigInspection;
  /** Why the kubeconfig is refused, from the API's validation. */
  errors?: FieldError[];
}

/** What the pasted kubeconfig will be used as, or every reason it is refused. */
export const KubeconfigSummary = ({
  inspection,
  errors,
}: KubeconfigSummaryProps) => {
  if (errors?.length) {
    return (
      <Alert severity="error" data-testid="kubeconfig-errors">
        <Typography variant="body2">This kubeconfig can't be used:</Typography>
        <ul style={{ margin: 0, paddingLeft: 20 }}>
          {errors.map(e => (
            <li key={`${e.field}:${e.message}`}>
              <Typography variant="body2">{e.message}</Typography>
              {e.field !== 'kubeconfig' && (
                <Typography variant="caption" color="textSecondary">
                  at {e.field}
                </Typography>
              )}
            </li>
          ))}
        </ul>
      </Alert>
    );
  }
  if (!inspection?.ok) return null;
  return (
    <Alert
      severity={inspection.insecure ? 'warning' : 'success'}
      data-testid="kubeconfig-summary"
    >
      <Box>
        <Typography variant="body2">
          Context:{' '}
          <strong>
            {inspection.context ?? '(none: its only cluster and user are used)'}
          </strong>
        </Typography>
        <Typography variant="body2">
          Server: <strong>{inspection.server}</strong>
        </Typography>
        <Typography variant="body2">
          Credential: <strong>{CREDENTIAL[inspection.credentialKind]}</strong>{' '}
          of user {inspection.userName}
        </Typography>
        {inspection.insecure && (
          <Typography variant="body2">
            TLS verification is off (insecure-skip-tls-verify): Argo CD will not
            check the server's certificate.
          </Typography>
        )}
      </Box>
    </Alert>
  );
};
