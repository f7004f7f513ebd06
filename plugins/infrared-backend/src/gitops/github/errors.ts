import { scrubSecrets } from '@infrared-clusters/plugin-infrared-common';

/**
 * An error whose message is shown as is (the Cluster's Registered condition), so it says what failed and
 * what to fix, and never carries a credential.
 */
export class GitopsPublishError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GitopsPublishError';
  }
}

/** The first step of a publish: a 404 here means the repository itself is missing or invisible. */
export const READ_REPOSITORY = 'read repository';

interface GithubishError {
  status?: number;
  message?: string;
  response?: { data?: { message?: string } };
}

/** Removes every occurrence of the secrets from a text. */
export function redact(
  text: string,
  secrets: Array<string | undefined>,
): string {
  return secrets.reduce<string>(
    (out, secret) =>
      secret && secret.length >= 4 ? out.split(secret).join('[REDACTED]') : out,
    text,
  );
}

/** Turns a failed GitHub request during `step` into the message a platform admin can act on. */
export function describeGithubError(
  error: unknown,
  context: {
    step: string;
    repo: string;
    apiBaseUrl: string;
    secrets: Array<string | undefined>;
  },
): GitopsPublishError {
  if (error instanceof GitopsPublishError) {
    return new GitopsPublishError(
      scrubSecrets(redact(error.message, context.secrets)),
    );
  }
  const { status, response, message } = (error ?? {}) as GithubishError;
  const detail = response?.data?.message ?? message ?? String(error);
  const { step, repo, apiBaseUrl } = context;
  let text: string;
  switch (status) {
    case 401:
      text = `GitHub rejected the credentials for ${repo} (401 ${detail}): check the token or GitHub App under integrations.github`;
      break;
    case 403:
      text = `GitHub denied "${step}" on ${repo} (403 ${detail}): the token or GitHub App installation needs write access to contents and pull requests`;
      break;
    case 404:
      text =
        step === READ_REPOSITORY
          ? `GitHub repository ${repo} was not found at ${apiBaseUrl}, or the credentials cannot see it (404)`
          : `GitHub answered 404 to "${step}" on ${repo}: ${detail}`;
      break;
    case undefined:
      text = `gitops publish to ${repo} failed during "${step}": ${detail}`;
      break;
    default:
      text = `GitHub answered ${status} to "${step}" on ${repo}: ${detail}`;
  }
  return new GitopsPublishError(scrubSecrets(redact(text, context.secrets)));
}
