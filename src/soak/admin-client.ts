import type { FaultCounts, Faults } from '../sim/context.ts';
import { SoakSetupError } from './errors.ts';

/**
 * The simulator's admin API over HTTP (loopback), as an operator would drive it: fault
 * injection and token expiry.
 */
export class AdminClient {
  readonly #base: string;

  constructor(baseUrl: string) {
    this.#base = baseUrl;
  }

  async setFaults(patch: Partial<Faults>): Promise<Faults> {
    return (await this.#call<{ faults: Faults }>('POST', '/admin/faults', patch)).faults;
  }

  async faults(): Promise<{ faults: Faults; injected: FaultCounts }> {
    return this.#call('GET', '/admin/faults');
  }

  /** Expire the user's tokens now: each rotates on its next use. Resolves with how many expired. */
  async expireTokens(userId: string): Promise<number> {
    return (await this.#call<{ expired: number }>('POST', '/admin/tokens/expire', { userId })).expired;
  }

  async #call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const res = await fetch(this.#base + path, {
      method,
      ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (res.status !== 200)
      throw new SoakSetupError(`admin ${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`);
    return (JSON.parse(text) as { data: T }).data;
  }
}
