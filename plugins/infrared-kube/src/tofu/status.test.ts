import {
  jobPhase,
  parsePlanSummary,
  provisionedCondition,
  provisionStatusFromJob,
  redact,
  tofuErrorMessage,
  type ObservedJob,
  type ObservedPod,
} from './status';

const job = (status: ObservedJob['status'] = {}): ObservedJob => ({
  metadata: { name: 'tofu-edge-1-plan', namespace: 'infrared' },
  status,
});
const cond = (
  type: string,
  status = 'True',
  reason?: string,
  message?: string,
) => ({ type, status, reason, message });
const pod = (status: ObservedPod['status']): ObservedPod => ({
  metadata: { name: 'tofu-edge-1-plan-abcde' },
  status,
});

describe('jobPhase', () => {
  it.each<[string, ObservedJob, ObservedPod | undefined, string]>([
    ['a new Job', job(), undefined, 'Waiting'],
    [
      'an active Job whose Pod is Pending',
      job({ active: 1, ready: 0 }),
      pod({ phase: 'Pending' }),
      'Waiting',
    ],
    ['a ready Pod', job({ active: 1, ready: 1 }), undefined, 'Running'],
    ['a Running Pod', job({ active: 1 }), pod({ phase: 'Running' }), 'Running'],
    [
      'Complete',
      job({
        succeeded: 1,
        conditions: [cond('SuccessCriteriaMet'), cond('Complete')],
      }),
      undefined,
      'Succeeded',
    ],
    [
      'SuccessCriteriaMet before Complete',
      job({ conditions: [cond('SuccessCriteriaMet')] }),
      undefined,
      'Running',
    ],
    [
      'Failed',
      job({ failed: 1, conditions: [cond('FailureTarget'), cond('Failed')] }),
      undefined,
      'Failed',
    ],
    [
      'FailureTarget before Failed',
      job({ conditions: [cond('FailureTarget')] }),
      undefined,
      'Running',
    ],
    [
      'a False Complete',
      job({ conditions: [cond('Complete', 'False')] }),
      undefined,
      'Waiting',
    ],
  ])('%s: %s', (_what, j, p, phase) => {
    expect(jobPhase(j, p)).toBe(phase);
  });
});

describe('provisionStatusFromJob', () => {
  it('a failed Job: the error from the termination message (the log tail), credentials redacted', () => {
    const failed = job({
      failed: 1,
      conditions: [
        cond(
          'Failed',
          'True',
          'BackoffLimitExceeded',
          'Job has reached the specified backoff limit',
        ),
      ],
    });
    const p = pod({
      phase: 'Failed',
      containerStatuses: [
        {
          name: 'tofu',
          state: {
            terminated: {
              exitCode: 1,
              reason: 'Error',
              message:
                'Initializing...\n╷\n│ Error: Invalid value for variable\n│ \n│ token s3cr3t-value is wrong\n╵\n',
            },
          },
        },
      ],
    });
    const status = provisionStatusFromJob(failed, {
      action: 'plan',
      generation: 1,
      pod: p,
      secrets: ['s3cr3t-value', 'ab'],
    });
    expect(status).toEqual({
      action: 'plan',
      generation: 1,
      job: 'tofu-edge-1-plan',
      phase: 'Failed',
      message:
        'exit code 1: Error: Invalid value for variable\ntoken *** is wrong',
      logs: 'kubectl -n infrared logs job/tofu-edge-1-plan',
    });
  });

  it("a failed Job without a Pod: the Job's condition", () => {
    const failed = job({
      conditions: [
        cond(
          'Failed',
          'True',
          'DeadlineExceeded',
          'Job was active longer than specified deadline',
        ),
      ],
    });
    expect(
      provisionStatusFromJob(failed, { action: 'apply', generation: 2 })
        .message,
    ).toBe('DeadlineExceeded: Job was active longer than specified deadline');
  });

  it('waiting: what the Pod waits for', () => {
    const p = pod({
      phase: 'Pending',
      containerStatuses: [
        {
          name: 'tofu',
          state: {
            waiting: {
              reason: 'CreateContainerConfigError',
              message: 'secret "aws" not found',
            },
          },
        },
      ],
    });
    expect(
      provisionStatusFromJob(job({ active: 1 }), {
        action: 'plan',
        generation: 1,
        pod: p,
      }).message,
    ).toBe(
      'Pod tofu-edge-1-plan-abcde: CreateContainerConfigError: secret "aws" not found',
    );
    expect(
      provisionStatusFromJob(job(), { action: 'plan', generation: 1 }).message,
    ).toBe('waiting for the Job to start its Pod');
  });

  it('a succeeded plan carries its summary', () => {
    const summary = {
      add: 1,
      change: 0,
      destroy: 0,
      resources: [{ address: 'terraform_data.cluster', actions: ['create'] }],
    };
    const status = provisionStatusFromJob(
      job({ conditions: [cond('Complete')] }),
      { action: 'plan', generation: 4, summary, specHash: 'h' },
    );
    expect(status).toMatchObject({
      phase: 'Succeeded',
      summary,
      specHash: 'h',
      message: 'plan: 1 to add, 0 to change, 0 to destroy',
    });
  });
});

describe('provisionedCondition', () => {
  const base = { generation: 2, job: 'tofu-x-2-apply' };
  it.each<[string, string, string, string]>([
    ['apply', 'Succeeded', 'True', 'Applied'],
    ['plan', 'Succeeded', 'False', 'Planned'],
    ['destroy', 'Succeeded', 'False', 'Destroyed'],
    ['plan', 'Failed', 'False', 'PlanFailed'],
    ['apply', 'Failed', 'False', 'ApplyFailed'],
    ['destroy', 'Failed', 'False', 'DestroyFailed'],
    ['plan', 'Running', 'Unknown', 'Planning'],
    ['apply', 'Running', 'Unknown', 'Applying'],
    ['destroy', 'Running', 'Unknown', 'Destroying'],
    ['apply', 'Waiting', 'Unknown', 'JobWaiting'],
  ])('%s %s -> %s %s', (action, phase, status, reason) => {
    const c = provisionedCondition({ ...base, action, phase: phase as any }, 2);
    expect(c).toMatchObject({
      type: 'Provisioned',
      status,
      reason,
      observedGeneration: 2,
    });
  });

  it('a plan says what it would do and what to do next', () => {
    const c = provisionedCondition({
      ...base,
      action: 'plan',
      phase: 'Succeeded',
      summary: { add: 2, change: 1, destroy: 0, resources: [] },
    });
    expect(c.message).toBe(
      'Job tofu-x-2-apply planned 2 to add, 1 to change, 0 to destroy; Apply builds it (provision.action: apply)',
    );
  });
});

describe('parsePlanSummary', () => {
  it.each<[string, object | undefined]>([
    [
      'x\ninfrared-plan-summary: "[{\\"actions\\":[\\"create\\"],\\"address\\":\\"terraform_data.cluster\\"},{\\"actions\\":[\\"delete\\",\\"create\\"],\\"address\\":\\"terraform_data.node[0]\\"},{\\"actions\\":[\\"update\\"],\\"address\\":\\"a.b\\"}]"\n',
      {
        add: 2,
        change: 1,
        destroy: 1,
        resources: [
          { address: 'terraform_data.cluster', actions: ['create'] },
          { address: 'terraform_data.node[0]', actions: ['delete', 'create'] },
          { address: 'a.b', actions: ['update'] },
        ],
      },
    ],
    [
      'infrared-plan-summary: "[]"',
      { add: 0, change: 0, destroy: 0, resources: [] },
    ],
    [
      'infrared-plan-summary: "[{\\"actions\\":[\\"create\\"],\\"address\\":\\"x[\\\\\\"$${a}\\\\\\"]\\"}]"',
      {
        add: 1,
        change: 0,
        destroy: 0,
        resources: [{ address: 'x["${a}"]', actions: ['create'] }],
      },
    ],
    ['no summary here', undefined],
    ['infrared-plan-summary: not json', undefined],
  ])('%j', (log, expected) => {
    expect(parsePlanSummary(log)).toEqual(expected);
  });
});

describe('redact and tofuErrorMessage', () => {
  it('replaces every credential value of 4 characters or more, longest first', () => {
    expect(
      redact('key AKIA123 secret AKIA123456 abc', [
        'AKIA123',
        'AKIA123456',
        'abc',
      ]),
    ).toBe('key *** secret *** abc');
  });
  it('drops terminal colours', () => {
    expect(
      tofuErrorMessage(
        '\u001b[31m│\u001b[0m \u001b[0m\u001b[1m\u001b[31mError: \u001b[0mboom',
      ),
    ).toBe('Error: boom');
  });
  it('keeps the Error lines without the box', () => {
    expect(
      tofuErrorMessage(
        'a\nb\n╷\n│ Error: Unsupported argument\n│ \n│   on main.tf line 3\n╵',
      ),
    ).toBe('Error: Unsupported argument\non main.tf line 3');
  });
});
