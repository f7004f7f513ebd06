import { formatSlogText, slogTextLogger } from './logger';

describe('slog text logs', () => {
  it('formats like Go slog TextHandler', () => {
    expect(
      formatSlogText(
        'warn',
        'no usable kubeconfig; skipping',
        { namespace: 'a', n: 2, msg: 'has "quotes"' },
        new Date('2026-08-07T14:30:00Z'),
      ),
    ).toBe(
      'time=2026-08-07T14:30:00.000Z level=WARN msg="no usable kubeconfig; skipping" namespace=a n=2 msg="has \\"quotes\\""',
    );
  });

  it('drops debug unless asked', () => {
    const out: string[] = [];
    slogTextLogger(s => out.push(s)).debug('hidden');
    slogTextLogger(s => out.push(s), { debug: true }).debug('shown');
    expect(out).toHaveLength(1);
    expect(out[0]).toContain('msg=shown');
  });
});
