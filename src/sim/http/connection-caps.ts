/** The caps `ConnectionCaps` enforces (SimSettings). */
export interface ConnectionCapSettings {
  readonly maxConnectionsPerIp: number;
  readonly maxConnectionsPerAccount: number;
}

/**
 * Open WebSocket connections per client IP and per account, every path together. A
 * connection is counted from its admitted handshake until its socket closes, so handshakes
 * in flight count too and a flood of them cannot slip past the cap.
 */
export class ConnectionCaps {
  readonly #byIp = new Map<string, number>();
  readonly #byAccount = new Map<string, number>();

  constructor(private readonly settings: ConnectionCapSettings) {}

  /** Count one more connection and return its release (call once, when it closes); or the cap it would pass. */
  take(ip: string, accountId: string): (() => void) | string {
    const { maxConnectionsPerIp, maxConnectionsPerAccount } = this.settings;
    if ((this.#byIp.get(ip) ?? 0) >= maxConnectionsPerIp)
      return `too many open connections from this address (at most ${maxConnectionsPerIp})`;
    if ((this.#byAccount.get(accountId) ?? 0) >= maxConnectionsPerAccount)
      return `too many open connections for this account (at most ${maxConnectionsPerAccount})`;
    bump(this.#byIp, ip, 1);
    bump(this.#byAccount, accountId, 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      bump(this.#byIp, ip, -1);
      bump(this.#byAccount, accountId, -1);
    };
  }

  /** Open connections of an IP and of an account (tests, logs). */
  count(ip: string, accountId?: string): { readonly ip: number; readonly account: number } {
    return {
      ip: this.#byIp.get(ip) ?? 0,
      account: accountId === undefined ? 0 : (this.#byAccount.get(accountId) ?? 0),
    };
  }
}

/** Add `by` to a key's count; a count back at zero leaves the map, which holds open connections only. */
function bump(map: Map<string, number>, key: string, by: number): void {
  const n = (map.get(key) ?? 0) + by;
  if (n > 0) map.set(key, n);
  else map.delete(key);
}
