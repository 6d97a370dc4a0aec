import { describe, expect, it } from 'vitest';
import { BacktestInputError } from '../../src/backtest/errors.ts';
import { TapeBuildThreadError, threadError, threadFailure } from '../../src/backtest/tape/build-protocol.ts';
import { TapeFileError } from '../../src/backtest/tape/file.ts';

/** The error as the replay's thread gets it back: through a structured clone, as a message crosses. */
const across = (err: unknown) => threadError(structuredClone(threadFailure(err)));

describe('a build thread error crossing to the replay thread', () => {
  it('comes back as the same class, message and fields', () => {
    const problem = { file: 'f.jsonl.gz', line: 7, problem: 'frame', detail: 'bad' };
    const input = across(new BacktestInputError('f.jsonl.gz:7: frame: bad (--strict: stopping)', problem, true));
    expect(input).toBeInstanceOf(BacktestInputError);
    expect(input).toMatchObject({
      message: 'f.jsonl.gz:7: frame: bad (--strict: stopping)',
      problem,
      unreadable: true,
    });
    expect((input as BacktestInputError).code).toBe('LS_ERR_BACKTEST_INPUT');

    const tape = across(new TapeFileError('/t/x.tape', 'corrupt', 'the tape is damaged'));
    expect(tape).toBeInstanceOf(TapeFileError);
    expect(tape).toMatchObject({ message: '/t/x.tape: the tape is damaged', path: '/t/x.tape', reason: 'corrupt' });

    const other = across(new RangeError('ENOSPC: no space left on device'));
    expect(other).toBeInstanceOf(TapeBuildThreadError);
    expect(other).toMatchObject({ message: 'ENOSPC: no space left on device', code: 'LS_ERR_TAPE_BUILD_THREAD' });
  });
});
