import AddIcon from '@material-ui/icons/Add';
import type { Allowance } from '../../hooks/useClusterPermissions';
import { PermissionButton } from '../PermissionButton';

export interface RegisterClusterButtonProps {
  allowance: Allowance;
  onClick: () => void;
}

/** Opens the register form; disabled, saying why, for users who are not platform admins. */
export const RegisterClusterButton = ({
  allowance,
  onClick,
}: RegisterClusterButtonProps) => (
  <PermissionButton
    allowance={allowance}
    variant="contained"
    color="primary"
    startIcon={<AddIcon />}
    onClick={onClick}
  >
    Register a workload cluster
  </PermissionButton>
);
