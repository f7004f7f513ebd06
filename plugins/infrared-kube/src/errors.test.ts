import { ApiException } from '@kubernetes/client-node';
import { KubeApiError, kubeCall } from './errors';

const tooMany = (retryAfter?: string) =>
  new ApiException(
    429,
    'Too Many Requests',
    {
      kind: 'Status',
      reason: 'TooManyRequests',
      message: 'storage is (re)initializing',
    },
    retryAfter === undefined ? {} : { 'retry-after': retryAfter },
  );

describe('kubeCall', () => {
  it('sends a call again after a 429 once its Retry-After has passed', async () => {
    const fn = jest
      .fn()
      .mockRejectedValueOnce(tooMany('0'))
      .mockRejectedValueOnce(tooMany('0'))
      .mockResolvedValueOnce('listed');
    await expect(kubeCall('LIST clusters', fn)).resolves.toBe('listed');
    expect(fn).toHaveBeenCalledTimes(3);
  });

  it('gives up after four 429s and says which call', async () => {
    const fn = jest.fn().mockRejectedValue(tooMany('0'));
    const error = await kubeCall('LIST clusters', fn).then(
      () => undefined,
      (e: KubeApiError) => e,
    );
    expect(error).toBeInstanceOf(KubeApiError);
    expect(error).toMatchObject({ code: 429, reason: 'TooManyRequests' });
    expect(error?.message).toBe('LIST clusters: storage is (re)initializing');
    expect(fn).toHaveBeenCalledTimes(4);
  });

  it('waits 1 s when the 429 names no Retry-After', async () => {
    jest.useFakeTimers();
    try {
      const fn = jest
        .fn()
        .mockRejectedValueOnce(tooMany())
        .mockResolvedValueOnce('ok');
      const result = kubeCall('GET secret', fn);
      await jest.advanceTimersByTimeAsync(999);
      expect(fn).toHaveBeenCalledTimes(1);
      await jest.advanceTimersByTimeAsync(1);
      await expect(result).resolves.toBe('ok');
      expect(fn).toHaveBeenCalledTimes(2);
    } finally {
      jest.useRealTimers();
    }
  });

  it('never sends again after other errors: a conflict, a 503, a refused connection', async () => {
    for (const error of [
      new ApiException(409, 'Conflict', { reason: 'Conflict' }, {}),
      new ApiException(503, 'Unavailable', {}, { 'retry-after': '0' }),
      Object.assign(new Error('connect ECONNREFUSED'), {
        code: 'ECONNREFUSED',
      }),
    ]) {
      const fn = jest.fn().mockRejectedValue(error);
      await expect(kubeCall('CREATE secret', fn)).rejects.toBeInstanceOf(
        KubeApiError,
      );
      expect(fn).toHaveBeenCalledTimes(1);
    }
  });
});
