import { LinesmithError, NOT_SENT, type NotSent } from '../shared/errors.ts';

/** A call made by a bot the soak has crashed: it never leaves the process. */
export class BotCrashedError extends LinesmithError implements NotSent {
  override readonly code = 'LS_ERR_SOAK_BOT_CRASHED';
  /** Nothing was sent (the order manager then knows the order was not placed). */
  readonly [NOT_SENT] = true as const;
  readonly sent = false as const;
  constructor(what: string) {
    super(`${what}: the bot has crashed; nothing was sent`);
  }
}

/** A heartbeat the soak kept from leaving the bot (the lapse it stages). */
export class HeartbeatHeldBackError extends LinesmithError implements NotSent {
  override readonly code = 'LS_ERR_SOAK_HEARTBEAT_HELD_BACK';
  readonly [NOT_SENT] = true as const;
  readonly sent = false as const;
  constructor() {
    super('heartbeat: held back by the soak; nothing was sent');
  }
}

/** A soak could not set itself up or run (not an invariant failure: those are results). */
export class SoakSetupError extends LinesmithError {
  override readonly code = 'LS_ERR_SOAK_SETUP';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
