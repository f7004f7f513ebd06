import { useEffect, useState } from 'react';
import Alert from '@material-ui/lab/Alert';
import { useApi } from '@backstage/frontend-plugin-api';
import {
  findTemplate,
  type ClusterTemplate,
  type ClusterView,
} from '@infrared-clusters/plugin-infrared-common';
import { infraredApiRef } from '../../api';

/** Whether the apply acts in a cloud account: the cluster names a credentials Secret. */
export const appliesWithCredentials = (cluster: ClusterView) =>
  !!cluster.provision?.credentialsSecret;

/**
 * What Apply creates, in the template's own words (its `description` in
 * infrared.provisioning.templates, from GET /v1/provisioning/templates), and, only when the cluster
 * names a credentials Secret, the billable caution about the account they belong to (issue 23.3).
 */
export const ApplyCaution = ({ cluster }: { cluster: ClusterView }) => {
  const api = useApi(infraredApiRef);
  const [template, setTemplate] = useState<ClusterTemplate | null>();
  const ref = cluster.template!;
  const { module, version } = ref;
  useEffect(() => {
    let live = true;
    api.getClusterTemplates().then(
      answer =>
        live &&
        setTemplate(
          findTemplate(answer.items as ClusterTemplate[], {
            module,
            version,
          }) ?? null,
        ),
      () => live && setTemplate(null),
    );
    return () => {
      live = false;
    };
  }, [api, module, version]);

  const name = `${module}${version ? `@${version}` : ''}`;
  let what = `Apply runs the OpenTofu template ${name}.`;
  if (template === undefined) what = `Reading what template ${name} creates…`;
  else if (template?.description)
    what = `Apply runs the template ${template.title} (${name}): ${template.description}`;
  const credentials = cluster.provision?.credentialsSecret;
  return (
    <Alert severity="warning" data-testid="billable-caution">
      {what}{' '}
      {credentials &&
        'Apply creates billable resources: it creates real cloud resources in the account the credentials belong to, and they cost money until you destroy them.'}{' '}
      What it creates stays until you destroy it: removing the cluster does not
      destroy it.
    </Alert>
  );
};
