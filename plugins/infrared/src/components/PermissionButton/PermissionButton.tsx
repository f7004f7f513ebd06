import Box from '@material-ui/core/Box';
import Button, { ButtonProps } from '@material-ui/core/Button';
import Tooltip from '@material-ui/core/Tooltip';
import Typography from '@material-ui/core/Typography';
import type { Allowance } from '../../hooks/useClusterPermissions';

export interface PermissionButtonProps extends ButtonProps {
  allowance: Allowance;
}

/**
 * A button the permission framework may disable; then it says why, both on hover and as text
 * next to it (a disabled button gets no hover, hence the span).
 */
export const PermissionButton = ({
  allowance,
  disabled,
  children,
  ...props
}: PermissionButtonProps) => (
  <Box display="inline-flex" flexDirection="column" alignItems="flex-start">
    <Tooltip title={allowance.reason ?? ''}>
      <span>
        <Button {...props} disabled={disabled || !allowance.allowed}>
          {children}
        </Button>
      </span>
    </Tooltip>
    {allowance.reason && (
      <Typography variant="caption" color="textSecondary">
        {allowance.reason}
      </Typography>
    )}
  </Box>
);
