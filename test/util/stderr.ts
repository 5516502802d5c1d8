/**
 * What `run` wrote to process.stderr, as one string (the chunks joined): the App prints its warnings and summary
 * there. stderr is restored whatever `run` does.
 */
export function stderrOf(run: () => void): string {
  const written: string[] = [];
  const spy = jest.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => {
    written.push(String(s));
    return true;
  });
  try {
    run();
  } finally {
    spy.mockRestore();
  }
  return written.join('');
}
