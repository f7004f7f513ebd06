import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { REGISTER_PARAM } from '../../hooks/useClusterLinks';

/**
 * The name in `?register=<name>`, as the page was opened (the placement card's "Register it" link),
 * and `clear` to drop the parameter once the form closes, so a reload does not open it again.
 */
export function useRegisterRequest(): { name?: string; clear: () => void } {
  const [params, setParams] = useSearchParams();
  const [name, setName] = useState(
    () => params.get(REGISTER_PARAM) ?? undefined,
  );
  const clear = useCallback(() => {
    setName(undefined);
    if (!params.has(REGISTER_PARAM)) return;
    const next = new URLSearchParams(params);
    next.delete(REGISTER_PARAM);
    setParams(next, { replace: true });
  }, [params, setParams]);
  return { name, clear };
}
