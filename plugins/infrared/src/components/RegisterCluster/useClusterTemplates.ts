import { useEffect, useState } from 'react';
import type {
  ClusterTemplate,
  InfraredApi,
  ProvisioningRunnerView,
} from '@infrared-clusters/plugin-infrared-common';

/**
 * The cluster templates, and whether the OpenTofu Jobs can run yet; asked again every
 * `pollMs` while they cannot (OpenTofu being prepared), so the form says so until it is ready.
 */
export function useClusterTemplates(
  api: Pick<InfraredApi, 'getClusterTemplates'>,
  pollMs: number,
) {
  const [templates, setTemplates] = useState<ClusterTemplate[]>();
  const [runner, setRunner] = useState<ProvisioningRunnerView>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = () =>
      api
        .getClusterTemplates()
        .then(answer => {
          if (!live) return;
          setTemplates(answer.items as ClusterTemplate[]);
          setRunner(answer.runner);
          setError(undefined);
          if (!answer.runner.ready) timer = setTimeout(load, pollMs);
        })
        .catch(e => live && setError((e as Error).message));
    load();
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, [api, pollMs]);
  return { templates, runner, error };
}
