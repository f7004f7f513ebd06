import {
  ClusterFlavor,
  ClusterProvider,
  ClusterTemplate,
  FieldError,
  inspectKubeconfig,
  KubeconfigInspection,
  RegisterClusterRequest,
  validateRegisterClusterRequest,
} from '@infrared-clusters/plugin-infrared-common';

export type ConnectionChoice = 'kubeconfig' | 'inCluster' | 'build';

/** What the register form holds. The kubeconfig lives here and in the POST body only. */
export interface RegisterFormValues {
  name: string;
  connection: ConnectionChoice;
  kubeconfig: string;
  flavor: ClusterFlavor | '';
  provider: ClusterProvider | '';
  region: string;
  server: string;
  /** Build with OpenTofu: the template, as `module` or `module@version`. */
  template: string;
  /** Build with OpenTofu: the template's variables as typed (empty ones are left out). */
  variables: Record<string, string>;
  /** Build with OpenTofu: the credentials Secret's name in the OpenTofu Jobs' namespace, infrared-tofu by default (optional). */
  credentialsSecret: string;
}

export const EMPTY_FORM: RegisterFormValues = {
  name: '',
  connection: 'kubeconfig',
  kubeconfig: '',
  flavor: '',
  provider: '',
  region: '',
  server: '',
  template: '',
  variables: {},
  credentialsSecret: '',
};

/** How the form names a template. */
export const templateKey = (t: Pick<ClusterTemplate, 'module' | 'version'>) =>
  t.version ? `${t.module}@${t.version}` : t.module;

export type FormField =
  | 'name'
  | 'kubeconfig'
  | 'flavor'
  | 'provider'
  | 'region'
  | 'server'
  | 'template'
  | 'provision'
  | 'form';

/** The body of POST /v1/clusters the form stands for: empty optional fields are left out. */
export function requestBody(
  values: RegisterFormValues,
  templates: readonly ClusterTemplate[] = [],
): Record<string, unknown> {
  const body: Record<string, unknown> = { name: values.name };
  if (values.connection === 'build') {
    const template = templates.find(t => templateKey(t) === values.template);
    body.template = template
      ? {
          module: template.module,
          ...(template.version ? { version: template.version } : {}),
        }
      : { module: values.template };
    const variables: Record<string, string> = {};
    for (const [key, value] of Object.entries(values.variables)) {
      if (value !== '') variables[key] = value;
    }
    // a template variable called name is the cluster's name unless typed otherwise
    if (template?.variables.some(v => v.name === 'name') && !variables.name) {
      variables.name = values.name;
    }
    const provision: Record<string, unknown> = { variables };
    if (values.credentialsSecret.trim()) {
      provision.credentialsSecretRef = {
        name: values.credentialsSecret.trim(),
      };
    }
    body.provision = provision;
  } else if (values.connection === 'inCluster') body.inCluster = true;
  else body.kubeconfig = values.kubeconfig;
  for (const key of ['flavor', 'provider', 'region'] as const) {
    if (values[key].trim()) body[key] = values[key].trim();
  }
  if (values.connection === 'kubeconfig' && values.server.trim()) {
    body.server = values.server.trim();
  }
  return body;
}

/** The form field a request error is about (`kubeconfig.users[0].user.exec` is about `kubeconfig`). */
export function formFieldOf(field: string): FormField {
  const head = field.split(/[.[]/)[0];
  if (head === 'inCluster') return 'kubeconfig';
  const known: FormField[] = [
    'name',
    'kubeconfig',
    'flavor',
    'provider',
    'region',
    'server',
    'template',
    'provision',
  ];
  return (known as string[]).includes(head) ? (head as FormField) : 'form';
}

export function groupErrors(
  errors: FieldError[],
): Partial<Record<FormField, FieldError[]>> {
  const grouped: Partial<Record<FormField, FieldError[]>> = {};
  for (const error of errors) {
    (grouped[formFieldOf(error.field)] ??= []).push(error);
  }
  return grouped;
}

export interface RegisterFormCheck {
  /** The request to send, when the form is valid. */
  request?: RegisterClusterRequest;
  /** Every problem, by form field: the same checks and words as the API (from -common). */
  errors: Partial<Record<FormField, FieldError[]>>;
  /** The kubeconfig's inspection, whenever there is kubeconfig text, valid or not. */
  kubeconfig?: KubeconfigInspection;
}

/**
 * Checks the form with the API's own validation. The kubeconfig is inspected on its own too, so
 * the form can say which context, server and credential it will use while the name is still wrong.
 */
export function checkRegisterForm(
  values: RegisterFormValues,
  templates: readonly ClusterTemplate[] = [],
): RegisterFormCheck {
  const result = validateRegisterClusterRequest(
    requestBody(values, templates),
    { templates },
  );
  let kubeconfig: KubeconfigInspection | undefined;
  if (values.connection === 'kubeconfig' && values.kubeconfig.trim()) {
    kubeconfig =
      'value' in result && result.kubeconfig
        ? result.kubeconfig
        : inspectKubeconfig(values.kubeconfig, { refuseInClusterServer: true });
  }
  if ('value' in result)
    return { request: result.value, errors: {}, kubeconfig };
  return { errors: groupErrors(result.errors), kubeconfig };
}
