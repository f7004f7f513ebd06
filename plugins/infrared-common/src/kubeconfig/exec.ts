import type { FieldError } from '../fieldErrors';
import { isMapping, Mapping, readString } from './read';
import type { ArgoExecProviderConfig } from './types';
import { flagValue, positionals, unsupportedFlag } from './execArgs';

/** What an exec user becomes in Argo CD's config: exactly one of the two shapes. */
export type ExecConversion =
  | { command: string; awsAuthConfig: { clusterName: string } }
  | { command: string; execProviderConfig: ArgoExecProviderConfig };

const EXEC_API_VERSIONS = [
  'client.authentication.k8s.io/v1beta1',
  'client.authentication.k8s.io/v1',
];

type Converter = (
  args: string[],
  field: string,
) => Omit<ExecConversion, 'command'> | FieldError;

/** awsAuthConfig has no env, so a region can only be given through execProviderConfig. */
function aws(
  clusterName: string,
  region: string | undefined,
): Omit<ExecConversion, 'command'> {
  if (!region) return { awsAuthConfig: { clusterName } };
  return {
    execProviderConfig: {
      command: 'argocd-k8s-auth',
      args: ['aws', '--cluster-name', clusterName],
      env: { AWS_REGION: region },
      apiVersion: 'client.authentication.k8s.io/v1beta1',
    },
  };
}

const iamAuthenticator: Converter = (args, field) => {
  const bad = unsupportedFlag(
    args,
    ['-i', '--cluster-id', '--region'],
    'aws-iam-authenticator',
    field,
  );
  if (bad) return bad;
  const name = flagValue(args, ['-i', '--cluster-id']);
  if (!name) {
    return {
      field: `${field}.args`,
      message:
        'exec runs aws-iam-authenticator without -i/--cluster-id: Argo CD needs the EKS cluster name',
    };
  }
  return aws(name, flagValue(args, ['--region']));
};

const awsCli: Converter = (args, field) => {
  const pos = positionals(args);
  if (!pos.some((p, i) => p === 'eks' && pos[i + 1] === 'get-token')) {
    return {
      field: `${field}.args`,
      message: `exec runs aws but not "eks get-token" (args: ${args.join(
        ' ',
      )}): nothing else the AWS CLI prints is a credential Argo CD can use`,
    };
  }
  const bad = unsupportedFlag(
    args,
    ['--region', '--cluster-name', '--cluster-id', '--output'],
    'aws',
    field,
  );
  if (bad) return bad;
  const name = flagValue(args, ['--cluster-name', '--cluster-id']);
  if (!name) {
    return {
      field: `${field}.args`,
      message:
        'exec runs aws eks get-token without --cluster-name: Argo CD needs the EKS cluster name',
    };
  }
  return aws(name, flagValue(args, ['--region']));
};

/** Only the target's identity is carried; how Argo CD logs in to Azure is its own deployment's business. */
const kubelogin: Converter = args => {
  const env: Record<string, string> = {};
  const serverId = flagValue(args, ['--server-id']);
  const environment = flagValue(args, ['--environment']);
  if (serverId) env.AAD_SERVER_APPLICATION_ID = serverId;
  if (environment) env.AAD_ENVIRONMENT_NAME = environment;
  return {
    execProviderConfig: {
      command: 'argocd-k8s-auth',
      args: ['azure'],
      ...(Object.keys(env).length ? { env } : {}),
      apiVersion: 'client.authentication.k8s.io/v1beta1',
    },
  };
};

// gke-gcloud-auth-plugin is absent on purpose: `argocd-k8s-auth gcp` mints a token bound to no cluster.
const CONVERTERS: Record<string, Converter> = {
  aws: awsCli,
  'aws-iam-authenticator': iamAuthenticator,
  'heptio-authenticator-aws': iamAuthenticator,
  kubelogin,
};

/** Base name of an exec command, as the source wrote it with or without a directory. */
export function execCommandName(exec: unknown): string {
  const command =
    isMapping(exec) && typeof exec.command === 'string' ? exec.command : '';
  return command.trim().split(/[\\/]/).pop() ?? '';
}

/** Converts an exec user to the Argo CD config that runs argocd-k8s-auth (never the source command). */
export function convertExec(
  exec: unknown,
  field: string,
): ExecConversion | { errors: FieldError[] } {
  if (!isMapping(exec))
    return { errors: [{ field, message: 'exec must be a mapping' }] };
  const errors: FieldError[] = [];
  const apiVersion = readString(exec, 'apiVersion', field, errors);
  if (!apiVersion && !errors.length) {
    errors.push({
      field: `${field}.apiVersion`,
      message: `exec has no apiVersion, which kubectl and client-go refuse: set it to one client-go accepts (${EXEC_API_VERSIONS.join(
        ', ',
      )})`,
    });
  } else if (apiVersion && !EXEC_API_VERSIONS.includes(apiVersion)) {
    errors.push({
      field: `${field}.apiVersion`,
      message: `exec apiVersion "${apiVersion}" is not one client-go accepts (${EXEC_API_VERSIONS.join(
        ', ',
      )})`,
    });
  }
  const args = readArgs(exec, field, errors);
  if (errors.length) return { errors };
  const command = execCommandName(exec);
  const convert = CONVERTERS[command];
  if (!convert) {
    return {
      errors: [
        {
          field: `${field}.command`,
          message: `exec command "${command}" has no Argo CD equivalent: only ${Object.keys(
            CONVERTERS,
          )
            .sort()
            .join(
              ', ',
            )} can be converted, because Argo CD's image ships argocd-k8s-auth and no cloud CLI`,
        },
      ],
    };
  }
  const result = convert(args, field);
  if ('message' in result) return { errors: [result] };
  return { command, ...result } as ExecConversion;
}

function readArgs(
  exec: Mapping,
  field: string,
  errors: FieldError[],
): string[] {
  const args = exec.args ?? [];
  if (!Array.isArray(args) || args.some(a => typeof a !== 'string')) {
    errors.push({
      field: `${field}.args`,
      message: 'args must be a list of strings',
    });
    return [];
  }
  return args as string[];
}
