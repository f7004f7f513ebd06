import { mockServices } from '@backstage/backend-test-utils';
import { ConflictError, NotFoundError } from '@backstage/errors';
import { ReconcileTrigger } from './trigger';

describe('ReconcileTrigger', () => {
  it('asks again while a pass is running, then stops', async () => {
    const calls: number[] = [];
    const triggerTask = jest.fn(async () => {
      calls.push(Date.now());
      if (calls.length < 3)
        throw new ConflictError('Task is currently running');
    });
    const trigger = new ReconcileTrigger(
      { triggerTask },
      'task',
      mockServices.logger.mock(),
      {
        retryMs: 5,
      },
    );
    trigger.request();
    await trigger.settled();
    expect(triggerTask).toHaveBeenCalledTimes(3);
  });

  it('merges requests made while one is pending into it (the pass it starts comes after them)', async () => {
    let release!: () => void;
    const triggerTask = jest
      .fn()
      .mockImplementationOnce(() => new Promise<void>(r => (release = r)))
      .mockResolvedValue(undefined);
    const trigger = new ReconcileTrigger(
      { triggerTask },
      'task',
      mockServices.logger.mock(),
    );
    trigger.request();
    trigger.request();
    trigger.request();
    release();
    await trigger.settled();
    expect(triggerTask).toHaveBeenCalledTimes(1);
  });

  it('gives up on other errors', async () => {
    const triggerTask = jest
      .fn()
      .mockRejectedValue(new NotFoundError('no task'));
    const trigger = new ReconcileTrigger(
      { triggerTask },
      'task',
      mockServices.logger.mock(),
    );
    trigger.request();
    await trigger.settled();
    expect(triggerTask).toHaveBeenCalledTimes(1);
  });

  it('triggers a burst of requests once per gap: the first at once, the rest together after it', async () => {
    const triggerTask = jest.fn(async () => {});
    const trigger = new ReconcileTrigger(
      { triggerTask },
      'task',
      mockServices.logger.mock(),
      { minGapMs: 1000 },
    );
    for (let i = 0; i < 5; i++) {
      trigger.request();
      // each request after the one before was accepted
      await new Promise(r => setImmediate(r));
    }
    expect(triggerTask).toHaveBeenCalledTimes(1);
    await trigger.settled();
    expect(triggerTask).toHaveBeenCalledTimes(2);
  });
});
