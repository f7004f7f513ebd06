/* Recording stand-ins for the registrar's logger and meter, for the executor and CLI tests. */
/** A logger that keeps what it was told. */
export function captureLogger() {
  const lines: Array<{
    level: string;
    message: string;
    fields: Record<string, unknown>;
  }> = [];
  const at =
    (level: string) =>
    (message: string, fields: Record<string, unknown> = {}) => {
      lines.push({ level, message, fields });
    };
  return {
    lines,
    logger: {
      debug: at('debug'),
      info: at('info'),
      warn: at('warn'),
      error: at('error'),
    },
    messages: (level?: string) =>
      lines.filter(l => !level || l.level === level).map(l => l.message),
  };
}

/** A meter that records every call (for the metrics contract). */
export function recordingMeter() {
  const calls: Array<{
    name: string;
    kind: string;
    value: number;
    attributes?: Record<string, string>;
  }> = [];
  return {
    calls,
    meter: {
      createCounter: (name: string) => ({
        add: (value: number, attributes?: Record<string, string>) =>
          calls.push({ name, kind: 'counter', value, attributes }),
      }),
      createGauge: (name: string) => ({
        record: (value: number, attributes?: Record<string, string>) =>
          calls.push({ name, kind: 'gauge', value, attributes }),
      }),
    },
    /** Sum of counter adds, or last gauge value, for a name and attributes. */
    value(name: string, attributes: Record<string, string> = {}) {
      const match = calls.filter(
        c =>
          c.name === name &&
          Object.entries(attributes).every(
            ([k, v]) => c.attributes?.[k] === v,
          ) &&
          Object.keys(c.attributes ?? {}).length ===
            Object.keys(attributes).length,
      );
      if (!match.length) return undefined;
      return match[0].kind === 'counter'
        ? match.reduce((a, c) => a + c.value, 0)
        : match[match.length - 1].value;
    },
  };
}
